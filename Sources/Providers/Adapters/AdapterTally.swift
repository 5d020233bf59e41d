/// What an adapter skipped or corrected, row by row. The poller logs it; tests pin it.
public struct AdapterTally: Hashable, Sendable, CustomStringConvertible {
    public enum Issue: String, CaseIterable, Hashable, Sendable, Comparable {
        /// A row that did not decode (missing or mistyped required field).
        case malformedRow
        /// A fuel code we do not map (e.g. NSW `EV`, QLD pseudo-fuels 999/1000).
        case unmappedFuel
        /// A sentinel or non-positive price: NSW `<= 0`, QLD/SA `9999`, VIC `null`/unavailable.
        case unavailablePrice
        /// A price row whose station is not in the payload (or the known site list).
        case unknownStation
        /// A timestamp in a format we do not understand.
        case badTimestamp
        /// An older duplicate of a (station, fuel) row that a newer row replaced.
        case supersededDuplicate
        /// A QLD/SA price that looked like cents rather than tenths and was multiplied by 10 (kept, not skipped).
        case correctedUnit

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public private(set) var counts: [Issue: Int] = [:]

    public init() {}

    public subscript(issue: Issue) -> Int { counts[issue, default: 0] }

    /// Rows left out of the update (everything except in-place corrections).
    public var skipped: Int { counts.filter { $0.key != .correctedUnit }.values.reduce(0, +) }

    public mutating func record(_ issue: Issue, _ count: Int = 1) {
        guard count > 0 else { return }
        counts[issue, default: 0] += count
    }

    public mutating func merge(_ other: AdapterTally) {
        for (issue, count) in other.counts { record(issue, count) }
    }

    /// "malformedRow=1 unmappedFuel=909", or "clean".
    public var description: String {
        counts.isEmpty ? "clean" : counts.sorted { $0.key < $1.key }.map { "\($0.key.rawValue)=\($0.value)" }.joined(separator: " ")
    }
}
