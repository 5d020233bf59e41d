import Foundation

/// Filters on `StationAccess` for station queries: open now (`open_now=true`), not known to be closed (what a
/// cheapest pick wants by default), and no members-only stations.
public struct AccessFilter: Hashable, Sendable {
    public enum Opening: Hashable, Sendable {
        /// Stations judged open, plus stations of `keepsUnknownIn` whose opening is unknown (left out elsewhere).
        case openNow
        /// Leaves out stations judged closed; unknown hours stay.
        case notClosed
    }

    public var opening: Opening?
    public var excludesMembersOnly: Bool
    /// Each provider's clock (`OpenNow` judges a station at its provider's) and the wall-clock reading they start from.
    public var clocks: DataClocks
    public var wall: Date
    /// States whose provider publishes no access facts at all (`FuelIndex.statesWithoutAccessFacts`): there an
    /// unknown opening passes `.openNow`, so a filter never comes back empty merely because nothing is published.
    public var keepsUnknownIn: Set<AustralianState>

    public init(
        opening: Opening?, excludesMembersOnly: Bool, clocks: DataClocks, wall: Date, keepsUnknownIn: Set<AustralianState> = []
    ) {
        self.keepsUnknownIn = keepsUnknownIn
        self.opening = opening
        self.excludesMembersOnly = excludesMembersOnly
        self.clocks = clocks
        self.wall = wall
    }

    public func admits(_ station: Station) -> Bool {
        if excludesMembersOnly, station.access?.membershipRequired == true { return false }
        guard let opening else { return true }
        // Most stations publish nothing: their opening is unknown without reading the provider's clock. (No closure
        // here: one capturing `station` copied the whole record, retaining each of its strings, per candidate.)
        var open: Bool?
        if let access = station.access {
            open = OpenNow.isOpen(access, in: station.state, at: clocks.now(for: station.provider, wall: wall))
        }
        switch opening {
        case .openNow: return open ?? keepsUnknownIn.contains(station.state)
        case .notClosed: return open != false
        }
    }
}
