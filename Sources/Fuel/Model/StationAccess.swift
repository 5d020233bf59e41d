import Foundation

/// When and to whom a station sells, as its provider publishes it: WA FuelWatch's flags (open 24/7, membership
/// required, truck stop, closed at the moment of the poll), VIC Fair Fuel's weekly opening hours.
/// Every field is optional: nil means the provider does not say.
public struct StationAccess: Hashable, Codable, Sendable {
    public var open24h: Bool?
    public var membershipRequired: Bool?
    public var truckStop: Bool?
    public var hours: WeeklyHours?
    /// A provider's "closed now" (`true`) or "open now" (`false`) observation and the instant it was made at.
    public var closedNow: Bool?
    public var observedAt: Date?

    public init(
        open24h: Bool? = nil, membershipRequired: Bool? = nil, truckStop: Bool? = nil, hours: WeeklyHours? = nil,
        closedNow: Bool? = nil, observedAt: Date? = nil
    ) {
        self.open24h = open24h
        self.membershipRequired = membershipRequired
        self.truckStop = truckStop
        self.hours = hours
        self.closedNow = closedNow
        self.observedAt = observedAt
    }

    /// Nothing published: not worth carrying.
    public var isEmpty: Bool { self == StationAccess() }
}

/// A week of opening hours in the station's local time, Monday first.
public struct WeeklyHours: Hashable, Codable, Sendable {
    public var days: [DayHours]

    /// `days` must hold seven entries, Monday to Sunday.
    public init?(days: [DayHours]) {
        guard days.count == 7, days.allSatisfy(\.isValid) else { return nil }
        self.days = days
    }

    /// Stored hours are checked like fresh ones: seven valid days, or the file is not trusted.
    public init(from decoder: Decoder) throws {
        let days = try decoder.container(keyedBy: CodingKeys.self).decode([DayHours].self, forKey: .days)
        guard let hours = WeeklyHours(days: days) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not seven valid days"))
        }
        self = hours
    }

    /// Open every day, all day.
    public var isAlwaysOpen: Bool { days.allSatisfy { $0 == .allDay } }
}

/// One weekday's hours. `open(from:to:)` counts minutes after local midnight; a `to` at or before `from`
/// runs past midnight into the next day (22:00 to 02:00).
public enum DayHours: Hashable, Codable, Sendable {
    case closed
    case allDay
    case open(from: Int, to: Int)

    var isValid: Bool {
        guard case .open(let from, let to) = self else { return true }
        return (0..<1_440).contains(from) && (0...1_440).contains(to)
    }
}
