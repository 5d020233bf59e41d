/// One provider's poll steps counted by outcome, and the time spent in them, for `/metrics`.
public struct ProviderPollCounts: Sendable, Equatable {
    public enum Outcome: String, Sendable, CaseIterable {
        /// An update was merged.
        case ok
        /// An update arrived but the merge refused it (empty, implausible, misdated).
        case rejected
        /// No usable answer (transport, HTTP, decoding, auth).
        case failed
        /// Nothing was due or nothing new was published.
        case idle
    }

    public var outcomes: [Outcome: UInt64] = [:]
    public var durationSeconds: Double = 0
    public var polls: UInt64 { outcomes.values.reduce(0, +) }

    public init() {}
}

/// Every provider's `ProviderPollCounts` since start (the pollers' counter).
public protocol PollCountSource: Sendable {
    var snapshot: [ProviderID: ProviderPollCounts] { get }
}
