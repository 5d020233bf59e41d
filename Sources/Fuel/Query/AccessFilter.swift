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
    /// Providers whose stations are left out whatever their access (an alert's search leaves out sample data).
    public var leavesOut: Set<ProviderID> = []

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
        admits(access: station.access, membersOnly: station.membershipRequired == true, state: station.state, provider: station.provider)
    }

    /// The same, reading the record in place: a `Station` passed by value from a snapshot's buffer is copied whole
    /// (each of its strings retained) per candidate. `membersOnly`: the station's `MembersOnly` verdict, which the
    /// index keeps per slot (`FuelIndex.isMembersOnly`).
    @inline(__always)
    public func admits(_ entry: UnsafePointer<StationEntry>, membersOnly: Bool) -> Bool {
        admits(
            access: entry.pointee.station.access, membersOnly: membersOnly, state: entry.pointee.station.state,
            provider: entry.pointee.station.provider)
    }

    private func admits(access: StationAccess?, membersOnly: Bool, state: AustralianState, provider: ProviderID) -> Bool {
        if excludesMembersOnly, membersOnly { return false }
        if !leavesOut.isEmpty, leavesOut.contains(provider) { return false }
        guard let opening else { return true }
        let open = OpenNow.isOpen(access, in: state, of: provider, clocks: clocks, wall: wall)
        switch opening {
        case .openNow: return open ?? keepsUnknownIn.contains(state)
        case .notClosed: return open != false
        }
    }
}
