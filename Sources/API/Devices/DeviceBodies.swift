import Foundation
import Fuel
import HTTP

/// The JSON the device routes answer with. An alert carries every field the app can send, `null` where unset, so
/// an app can show it back as it was made; prices in c/L with one decimal.
enum DeviceBodies {
    static let contentType = "application/json; charset=utf-8"

    static func response(_ status: HTTPStatus = .ok, _ body: (inout JSONWriter) -> Void) -> Response {
        var json = JSONWriter()
        body(&json)
        return Response(status: status, headers: ["Content-Type": contentType, "Cache-Control": "no-store"], body: json.bytes)
    }

    static func device(_ device: RegisteredDevice, _ json: inout JSONWriter) {
        json.raw("{")
        json.key("id"); json.int(Int(device.id))
        json.raw(","); json.key("secret"); json.string(device.secret)
        json.raw("}")
    }

    static func alerts(_ alerts: [AlertRecord], _ json: inout JSONWriter) {
        json.raw("{"); json.key("data"); json.raw("[")
        for (index, alert) in alerts.enumerated() {
            if index > 0 { json.raw(",") }
            self.alert(alert, &json)
        }
        json.raw("],"); json.key("limit"); json.int(AlertDefinition.maxPerDevice)
        json.raw("}")
    }

    static func alert(_ alert: AlertRecord, _ json: inout JSONWriter) {
        let definition = alert.definition
        json.raw("{")
        json.key("id"); json.int(Int(alert.id))
        json.raw(","); json.key("kind"); json.string(definition.kind.rawValue)
        json.raw(","); json.key("fuel"); json.string(definition.fuel.rawValue)
        switch definition.target {
        case .stations(let ids):
            json.raw(","); json.key("station_ids"); json.raw("[")
            for (index, id) in ids.enumerated() {
                if index > 0 { json.raw(",") }
                json.int(id.rawValue)
            }
            json.raw("],"); json.key("near"); json.null()
            json.raw(","); json.key("radius_km"); json.null()
        case .near(let point, let radius):
            json.raw(","); json.key("station_ids"); json.null()
            json.raw(","); json.key("near"); json.string(coordinateText(point))
            json.raw(","); json.key("radius_km"); json.decimal(radius, places: 2)
        }
        json.raw(","); json.key("threshold"); optionalPrice(definition.threshold, &json)
        json.raw(","); json.key("change"); optionalPrice(definition.change, &json)
        switch definition.delivery {
        case .immediate:
            json.raw(","); json.key("delivery"); json.string("immediate")
            json.raw(","); json.key("at"); json.null()
        case .daily(let at):
            json.raw(","); json.key("delivery"); json.string("daily")
            json.raw(","); json.key("at"); json.string(at.description)
        }
        json.raw(","); json.key("quiet_hours")
        if let quiet = definition.quietHours {
            json.raw("{"); json.key("from"); json.string(quiet.from.description)
            json.raw(","); json.key("to"); json.string(quiet.to.description); json.raw("}")
        } else {
            json.null()
        }
        json.raw(","); json.key("created_at")
        if let created = alert.createdAt { json.string(ISOTimestamp.string(created)) } else { json.null() }
        json.raw("}")
    }

    /// The inbox: each notification's title, message and data as decided, and when it was sent.
    static func notifications(_ entries: [NotificationRecord], _ json: inout JSONWriter) {
        json.raw("{"); json.key("data"); json.raw("[")
        for (index, entry) in entries.enumerated() {
            if index > 0 { json.raw(",") }
            let payload = (try? JSONSerialization.jsonObject(with: Data(entry.payload.utf8))) as? [String: Any] ?? [:]
            json.raw("{")
            json.key("id"); json.int(Int(entry.id))
            json.raw(","); json.key("alert_id")
            if let alert = entry.alertID { json.int(Int(alert)) } else { json.null() }
            json.raw(","); json.key("title")
            if let title = payload["title"] as? String { json.string(title) } else { json.null() }
            json.raw(","); json.key("message")
            if let message = payload["message"] as? String { json.string(message) } else { json.null() }
            json.raw(","); json.key("data")
            let data = payload["data"] as? [String: Any] ?? [:]
            json.raw(Array((try? JSONSerialization.data(withJSONObject: data, options: [.sortedKeys])) ?? Data("{}".utf8)))
            json.raw(","); json.key("sent_at")
            if let sent = entry.sentAt { json.string(ISOTimestamp.string(sent)) } else { json.null() }
            json.raw("}")
        }
        json.raw("]}")
    }

    static func coordinateText(_ point: Coordinate) -> String {
        var json = JSONWriter(capacity: 24)
        json.decimal(point.latitude, places: 6)
        json.raw(",")
        json.decimal(point.longitude, places: 6)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    private static func optionalPrice(_ value: PriceTenths?, _ json: inout JSONWriter) {
        if let value { json.price(value) } else { json.null() }
    }
}
