import Foundation

/// The instant each provider's data is judged at: live data by the wall clock, sample data by the instant it
/// was captured. A deployment routinely mixes the two (WA live without a key, NSW and VIC on samples until
/// credentials arrive), so every time-dependent answer asks for the clock of the state it is about.
/// Computed once per snapshot; `now(for:wall:)` is a dictionary lookup.
public struct DataClocks: Sendable, Hashable {
    /// Sample providers' capture instants. A live provider is absent: it follows the wall clock.
    public let frozen: [ProviderID: Date]
    /// The provider whose stations a state's answers come from.
    private let providerByState: [AustralianState: ProviderID]

    public static let wall = DataClocks(frozen: [:], providerByState: [:])

    init(frozen: [ProviderID: Date], providerByState: [AustralianState: ProviderID]) {
        self.frozen = frozen
        self.providerByState = providerByState
    }

    public init(snapshot: Snapshot) {
        var providerByState: [AustralianState: ProviderID] = [:]
        var tomorrowDay: [ProviderID: CalendarDay] = [:]
        for entry in snapshot.entries {
            let provider = entry.station.provider
            if providerByState[entry.station.state] == nil { providerByState[entry.station.state] = provider }
            for price in entry.prices {
                guard let day = price.tomorrow.flatMap({ CalendarDay($0.day) }) else { continue }
                tomorrowDay[provider] = max(tomorrowDay[provider] ?? day, day)
            }
        }
        var frozen: [ProviderID: Date] = [:]
        for status in snapshot.statuses where status.source == .sample {
            guard var captured = status.asOf else { continue }
            // A recording that holds tomorrow's prices was made after they were published.
            if let day = tomorrowDay[status.provider] {
                captured = max(captured, WATradingDay.publicationInstant(forTradingDay: day))
            }
            frozen[status.provider] = captured
        }
        self.init(frozen: frozen, providerByState: providerByState)
    }

    /// "Now" for `provider`'s data when the wall clock says `wall`.
    public func now(for provider: ProviderID, wall: Date) -> Date {
        frozen[provider] ?? wall
    }

    /// "Now" for `state`'s answers: its provider's clock (the wall clock for a state nobody serves yet).
    public func now(for state: AustralianState, wall: Date) -> Date {
        provider(of: state).map { now(for: $0, wall: wall) } ?? wall
    }

    /// The provider serving `state`, from the data or, before any data, the usual one.
    public func provider(of state: AustralianState) -> ProviderID? {
        providerByState[state] ?? state.usualProvider
    }

    public func isFrozen(_ provider: ProviderID) -> Bool { frozen[provider] != nil }
}

extension AustralianState {
    /// The provider that publishes this state's prices (PROVIDERS.md); nil where none is wired (NT).
    public var usualProvider: ProviderID? {
        switch self {
        case .NSW, .ACT: .nsw
        case .TAS: .tas
        case .WA: .wa
        case .QLD: .qld
        case .SA: .sa
        case .VIC: .vic
        case .NT: nil
        }
    }
}
