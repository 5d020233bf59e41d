import Fuel

/// `GET /v1/stations/:id/history`.
struct StationHistoryDTO: Codable, Sendable {
    struct Change: Codable, Sendable {
        var at: String
        var price: CentsValue
        /// Present (true) only for a price that is not real (a typo, a placeholder): left out of `daily`.
        var implausible: Bool?
    }

    struct Day: Codable, Sendable {
        var day: String
        var low: CentsValue
        var high: CentsValue
        var close: CentsValue
    }

    var stationId: Int
    var state: String
    var fuel: String
    var days: Int
    /// The window's last day: today in the state's calendar, by its provider's clock.
    var through: String
    var changes: [Change]
    var daily: [Day]

    init(station: Station, fuel: FuelType, days: Int, through: CalendarDay, window: StationPriceWindow) {
        stationId = station.id.rawValue
        state = station.state.rawValue
        self.fuel = fuel.rawValue
        self.days = days
        self.through = through.description
        changes = zip(window.changes, window.implausible).map {
            Change(at: ISOTimestamp.string($0.at), price: CentsValue($0.price), implausible: $1 ? true : nil)
        }
        daily = window.daily.map {
            Day(day: $0.day.description, low: CentsValue($0.low), high: CentsValue($0.high), close: CentsValue($0.close))
        }
    }
}
