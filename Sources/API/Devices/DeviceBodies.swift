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
        json.field("secret", device.secret)
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
        json.field("kind", definition.kind.rawValue)
        json.field("fuel", definition.fuel.rawValue)
        switch definition.target {
        case .stations(let ids):
            json.field("station_ids"); json.raw("[")
            for (index, id) in ids.enumerated() {
                if index > 0 { json.raw(",") }
                json.int(id.rawValue)
            }
            json.raw("]")
            json.field("near"); json.null()
            json.field("radius_km"); json.null()
        case .near(let point, let radius):
            json.field("station_ids"); json.null()
            json.field("near", coordinateText(point))
            json.field("radius_km", radius, places: 2)
        }
        json.field("threshold", definition.threshold)
        json.field("change", definition.change)
        switch definition.delivery {
        case .immediate:
            json.field("delivery", "immediate")
            json.field("at"); json.null()
        case .daily(let at):
            json.field("delivery", "daily")
            json.field("at", at.description)
        }
        json.field("quiet_hours")
        if let quiet = definition.quietHours {
            json.raw("{"); json.key("from"); json.string(quiet.from.description)
            json.field("to", quiet.to.description); json.raw("}")
        } else {
            json.null()
        }
        json.field("created_at", alert.createdAt.map(ISOTimestamp.string))
        json.raw("}")
    }

    /// The inbox: each notification's title and message as decided, the `data` its push carried (built from the
    /// stored payload as the sender builds it), and when it was sent.
    static func notifications(_ entries: [NotificationRecord], shareBase: PublicURL, _ json: inout JSONWriter) {
        json.raw("{"); json.key("data"); json.raw("[")
        for (index, entry) in entries.enumerated() {
            if index > 0 { json.raw(",") }
            let payload = (try? JSONSerialization.jsonObject(with: Data(entry.payload.utf8))) as? [String: Any] ?? [:]
            json.raw("{")
            json.key("id"); json.int(Int(entry.id))
            json.field("alert_id", entry.alertID.map { Int($0) })
            json.field("title", payload["title"] as? String)
            json.field("message", payload["message"] as? String)
            json.field("data")
            pushData(entry, payload: payload, shareBase: shareBase, &json)
            json.field("sent_at", entry.sentAt.map(ISOTimestamp.string))
            json.raw("}")
        }
        json.raw("]}")
    }

    /// What the push's `data` held: `alert_id` (null once the alert is deleted), `station_id`, `fuel`, `price` and
    /// the station's share link as `url`.
    private static func pushData(_ entry: NotificationRecord, payload: [String: Any], shareBase: PublicURL, _ json: inout JSONWriter) {
        json.raw("{")
        json.key("alert_id")
        if let alertID = entry.alertID { json.int(Int(alertID)) } else { json.null() }
        let station = payload["station_id"] as? Int
        json.field("station_id", station)
        json.field("fuel", payload["fuel"] as? String)
        json.field("price", (payload["price"] as? NSNumber)?.doubleValue, places: 1)
        json.field("url", station.map(shareBase.stationLink))
        json.raw("}")
    }

    static func coordinateText(_ point: Coordinate) -> String {
        var json = JSONWriter(capacity: 24)
        json.decimal(point.latitude, places: 6)
        json.raw(",")
        json.decimal(point.longitude, places: 6)
        return String(decoding: json.bytes, as: UTF8.self)
    }
}
