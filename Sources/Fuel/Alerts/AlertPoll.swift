import Foundation

/// What one evaluation looks at: the snapshot just published (through its index), the prices that changed since the
/// last evaluated one (`FuelIndex.changes(since:)`), and, when the evaluator still holds it, the snapshot before
/// (a move is measured from its price when an alert has no reference yet).
public struct AlertPoll: Sendable {
    public var index: FuelIndex
    public var changes: [PriceChange]
    public var previous: Snapshot?
    /// The wall clock: when the decisions are made (quiet hours, daily summaries).
    public var now: Date
    /// Each provider's clock (whether a station is open, when WA's tomorrow prices count as published): one
    /// pass over the snapshot, made once per poll.
    public let clocks: DataClocks
    /// The providers serving the bundled sample payloads (a mixed deployment serves them for the states it does not
    /// poll): their prices never move an alert, since nobody can buy at them.
    public let sampleProviders: Set<ProviderID>

    public init(index: FuelIndex, changes: [PriceChange], previous: Snapshot? = nil, now: Date) {
        self.index = index
        self.changes = changes
        self.previous = previous
        self.now = now
        clocks = DataClocks(snapshot: index.snapshot)
        sampleProviders = Set(index.snapshot.statuses.filter { $0.source == .sample }.map(\.provider))
    }

    /// Whether the price of `fuel` at `slot` may move an alert: it counts (neither stale nor implausible) and it is
    /// not sample data.
    public func counts(_ fuel: FuelType, slot: Int) -> Bool {
        index.standing(fuel, slot: slot) == .counts && !isSample(slot)
    }

    public func isSample(_ slot: Int) -> Bool {
        !sampleProviders.isEmpty && sampleProviders.contains(index.snapshot.entries[slot].station.provider)
    }

    /// The poll between two published snapshots: the prices of `index` first seen after `previous` changed.
    public init(index: FuelIndex, after previous: Snapshot, now: Date) {
        self.init(index: index, changes: Array(index.changes(since: previous.changedAt ?? .distantPast)), previous: previous, now: now)
    }

    public var snapshot: Snapshot { index.snapshot }
}

/// What an evaluation decided, and the states to write with the decisions (in the same transaction).
public struct AlertOutcome: Sendable, Equatable {
    public var decisions: [AlertDecision] = []
    public var states: AlertStates = [:]
    /// The WA trading day whose tomorrow prices were announced, when this evaluation announced them.
    public var announcedTomorrow: String?

    public init() {}
}
