import Foundation

/// gorush's `POST /api/push` body and answer.
enum GorushWire {
    static func body(_ messages: [PushMessage], topic: String?) throws -> Data {
        let notifications: [[String: Any]] = messages.map { message in
            var item: [String: Any] = [
                "tokens": [message.token], "platform": message.platform.rawValue, "title": message.title, "message": message.message,
                "data": ["alert_id": message.data.alertID, "station_id": message.data.stationID, "fuel": message.data.fuel,
                         "price": message.data.price, "url": message.data.url] as [String: Any],
            ]
            switch message.platform {
            case .ios:
                item["collapse_id"] = message.collapseID
                if let topic { item["topic"] = topic }
            case .android:
                item["collapse_key"] = message.collapseID
            }
            return item
        }
        return try JSONSerialization.data(withJSONObject: ["notifications": notifications], options: [.sortedKeys])
    }

    /// gorush's error names for a token that will never work again.
    static let deadTokenErrors: Set<String> = ["Unregistered", "BadDeviceToken", "NotRegistered"]

    struct Failure: Equatable {
        var token: String
        var error: String
    }

    /// The failed-push entries of an answer (`{"counts": 1, "logs": [{"type": "failed-push", "token": ..., "error": ...}], "success": "ok"}`).
    /// An answer without logs (gorush not in sync mode) reports no failures.
    static func failures(in data: Data) -> [Failure] {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let logs = object["logs"] as? [[String: Any]] else { return [] }
        return logs.compactMap { log in
            guard (log["type"] as? String) == "failed-push", let token = log["token"] as? String else { return nil }
            let error = (log["error"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? (log["message"] as? String) ?? "failed"
            return Failure(token: token, error: error)
        }
    }

    static func isDead(_ error: String) -> Bool {
        deadTokenErrors.contains(error) || deadTokenErrors.contains { error.contains($0) }
    }
}
