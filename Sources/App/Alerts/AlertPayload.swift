import AlertStore
import Foundation
import Fuel

/// The outbox row's `payload`: what the sender needs to build a push without reading the alert again (it may be
/// deleted by then) - the words, the station, the price and the daily summary group.
struct AlertPayload: Equatable {
    var title: String
    var message: String
    var stationID: Int
    var fuel: String
    /// Cents per litre.
    var price: Double
    var summaryGroup: String?
    /// An immediate alert's quiet hours (`AlertDecision.quietHours`), checked again when the push falls due.
    var quietHours: QuietHours?

    init(_ decision: AlertDecision) {
        title = decision.title
        message = decision.message
        stationID = decision.station.rawValue
        fuel = decision.fuel.rawValue
        price = decision.price.cents
        summaryGroup = decision.summaryGroup
        quietHours = decision.quietHours
    }

    init?(json: String) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
              let title = object["title"] as? String, let message = object["message"] as? String,
              let station = object["station_id"] as? Int, let fuel = object["fuel"] as? String,
              let price = (object["price"] as? NSNumber)?.doubleValue else { return nil }
        (self.title, self.message, self.stationID, self.fuel, self.price) = (title, message, station, fuel, price)
        summaryGroup = object["summary_group"] as? String
        if let quiet = object["quiet_hours"] as? [String: Any], let from = (quiet["from"] as? String).flatMap(TimeOfDay.init),
           let to = (quiet["to"] as? String).flatMap(TimeOfDay.init) {
            quietHours = QuietHours(from: from, to: to)
        }
    }

    var json: String {
        var object: [String: Any] = ["title": title, "message": message, "station_id": stationID, "fuel": fuel, "price": price]
        if let summaryGroup { object["summary_group"] = summaryGroup }
        if let quietHours { object["quiet_hours"] = ["from": quietHours.from.description, "to": quietHours.to.description] }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    /// The outbox row for `decision`.
    static func outboxDecision(_ decision: AlertDecision) -> Decision {
        Decision(key: decision.key, deviceID: decision.deviceID, alertID: decision.alertID, collapseID: decision.collapseID,
                 payload: AlertPayload(decision).json, deliverAfter: decision.deliverAfter)
    }
}

extension AlertStationState {
    init(_ key: AlertStateKey, _ state: AlertState) {
        self.init(alertID: key.alertID, stationID: key.station.rawValue, armed: state.armed, lastNotifiedTenths: state.reference?.tenths,
                  referenceStation: state.referenceStation?.rawValue)
    }

    var fuelState: (AlertStateKey, AlertState) {
        (AlertStateKey(alertID: alertID, station: StationID(stationID)),
         AlertState(armed: armed, reference: lastNotifiedTenths.map { PriceTenths(tenths: $0) }, referenceStation: referenceStation.map { StationID($0) }))
    }
}
