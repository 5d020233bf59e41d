import Foundation

/// A position in the change timeline: full-precision `changed_at` plus the station and fuel that break ties, so a
/// page may end between two changes of the same instant and the next page starts exactly after it (no repeats,
/// no skips, however many prices share an instant).
public struct ChangeCursor: Hashable, Sendable {
    public var changedAt: Date
    public var station: StationID
    public var fuel: FuelType

    public init(changedAt: Date, station: StationID, fuel: FuelType) {
        self.changedAt = changedAt
        self.station = station
        self.fuel = fuel
    }

    public init(after change: PriceChange) {
        self.init(changedAt: change.changedAt, station: change.station, fuel: change.fuel)
    }

    /// After every change at `instant` (what `since=instant` means).
    public static func after(instant: Date) -> ChangeCursor {
        ChangeCursor(changedAt: instant, station: StationID(999_999_999_999_999_999), fuel: FuelType.allCases.last!)
    }

    /// The timeline's own order.
    func precedesOrEquals(_ change: PriceChange) -> Bool {
        if changedAt != change.changedAt { return changedAt < change.changedAt }
        if station != change.station { return station < change.station }
        return fuel.ordinal <= change.fuel.ordinal
    }

    /// `c1.<hex of the instant's bits>.<station>.<fuel>`: opaque to clients, exact for us.
    public var token: String {
        "c1.\(String(changedAt.timeIntervalSince1970.bitPattern, radix: 16)).\(station.rawValue).\(fuel.rawValue)"
    }

    public init?(token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "c1", parts[1].count <= 16, let bits = UInt64(parts[1], radix: 16),
              parts[2].count <= 18, let station = Int(parts[2]), station > 0, let fuel = FuelType(rawValue: String(parts[3]))
        else { return nil }
        // Any 64 bits name a position: a non-finite instant sorts before or after every change.
        var seconds = Double(bitPattern: bits)
        if !seconds.isFinite { seconds = seconds.sign == .minus ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude }
        self.init(changedAt: Date(timeIntervalSince1970: seconds), station: StationID(station), fuel: fuel)
    }
}

extension FuelIndex {
    /// Current prices strictly after `cursor` in the timeline's order (binary search, no scan).
    public func changes(after cursor: ChangeCursor) -> ArraySlice<PriceChange> {
        var low = 0
        var high = timeline.count
        while low < high {
            let middle = (low + high) / 2
            if cursor.precedesOrEquals(timeline[middle]) { high = middle } else { low = middle + 1 }
        }
        // `low` is the first change at or after the cursor; skip the cursor's own change.
        if low < timeline.count, ChangeCursor(after: timeline[low]) == cursor { low += 1 }
        return timeline[low...]
    }
}
