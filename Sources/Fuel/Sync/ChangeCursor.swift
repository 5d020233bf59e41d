import Foundation

/// A position in the change timeline: full-precision `changed_at` plus the station and slot (the station itself,
/// then each fuel) that break ties, so a page may end between two changes of the same instant and the next page
/// starts exactly after it (no repeats, no skips, however many changes share an instant).
public struct ChangeCursor: Hashable, Sendable {
    public var changedAt: Date
    public var station: StationID
    /// nil for the station itself (its details or its removal), which sorts before its fuels.
    public var fuel: FuelType?

    public init(changedAt: Date, station: StationID, fuel: FuelType?) {
        self.changedAt = changedAt
        self.station = station
        self.fuel = fuel
    }

    public init(after event: ChangeEvent) {
        self.init(changedAt: event.changedAt, station: event.station, fuel: event.fuel)
    }

    /// After every change at `instant` (what `since=instant` means).
    public static func after(instant: Date) -> ChangeCursor {
        ChangeCursor(changedAt: instant, station: StationID(999_999_999_999_999_999), fuel: FuelType.allCases.last!)
    }

    /// 0 for the station, 1 + the fuel's ordinal for a fuel.
    var slot: Int { fuel.map { $0.ordinal + 1 } ?? 0 }

    /// Strictly before `other` in the timeline's order.
    public func precedes(_ other: ChangeCursor) -> Bool {
        !other.precedesOrEquals(changedAt: changedAt, station: station, slot: slot)
    }

    func precedesOrEquals(_ event: ChangeEvent) -> Bool {
        precedesOrEquals(changedAt: event.changedAt, station: event.station, slot: event.slot)
    }

    private func precedesOrEquals(changedAt instant: Date, station id: StationID, slot other: Int) -> Bool {
        if changedAt != instant { return changedAt < instant }
        if station != id { return station < id }
        return slot <= other
    }

    /// `c2.<hex of the instant's bits>.<station>.<fuel or "station">`: opaque to clients, exact for us. The bits are
    /// `Date`'s own (seconds since 2001), so the instant comes back identical; `c1` tokens (seconds since 1970, which
    /// can round by one unit in the last place) are still read.
    public var token: String {
        "c2.\(String(changedAt.timeIntervalSinceReferenceDate.bitPattern, radix: 16)).\(station.rawValue).\(fuel?.rawValue ?? Self.stationSlot)"
    }

    static let stationSlot = "station"

    public init?(token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "c1" || parts[0] == "c2", parts[1].count <= 16, let bits = UInt64(parts[1], radix: 16),
              parts[2].count <= 18, let station = Int(parts[2]), station > 0
        else { return nil }
        let fuel: FuelType?
        if parts[3] == Self.stationSlot {
            fuel = nil
        } else {
            guard let parsed = FuelType(rawValue: String(parts[3])) else { return nil }
            fuel = parsed
        }
        // Any 64 bits name a position: a non-finite instant sorts before or after every change.
        var seconds = Double(bitPattern: bits)
        if !seconds.isFinite { seconds = seconds.sign == .minus ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude }
        let instant = parts[0] == "c2" ? Date(timeIntervalSinceReferenceDate: seconds) : Date(timeIntervalSince1970: seconds)
        self.init(changedAt: instant, station: StationID(station), fuel: fuel)
    }
}
