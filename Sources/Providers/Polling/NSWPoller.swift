import Foundation
import Fuel

/// NSW (and ACT, by postcode in the adapter): the first poll of each Sydney day fetches the full
/// `/FuelPriceCheck/v1/fuel/prices`, later ones the `/prices/new` deltas, every `interval` between 05:00 and
/// 23:00 Sydney, within the 2,500 calls/month free quota (PROVIDERS.md §1.7). The token is shared with TAS.
public actor NSWPoller: ProviderPoller {
    public static let fullPath = "/FuelPriceCheck/v1/fuel/prices"
    public static let deltaPath = "/FuelPriceCheck/v1/fuel/prices/new"
    public static let windowStartHour = 5
    public static let windowEndHour = 23
    static let window = DailyWindow(startHour: windowStartHour, endHour: windowEndHour, zone: AustralianState.NSW.zone)

    public nonisolated let provider = ProviderID.nsw
    public nonisolated let interval: TimeInterval
    let endpoint: ProviderEndpoint
    /// The Sydney day of the last applied full list; deltas only follow a full of the same day.
    private var lastFullDay: CalendarDay?

    public init(client: ProviderClient, auth: NSWOAuth, base: URL, interval: TimeInterval, timeout: TimeInterval) {
        self.endpoint = ProviderEndpoint(client: client, auth: auth, base: base, timeout: timeout)
        self.interval = interval
    }

    public nonisolated var plan: String {
        "nsw (full daily, deltas every \(Int(interval))s 05:00–23:00 Sydney; ≈\(Self.callsPerDay(interval: interval)) calls/day)"
    }

    /// Polls a day within the window (the first is the full list) plus two token calls (a token lasts ~12 h).
    public static func callsPerDay(interval: TimeInterval) -> Int {
        window.polls(every: interval) + 2
    }

    public func poll(at now: Date, sink: any ProviderSink) async -> PollOutcome {
        let today = CalendarDay(containing: now, in: Self.window.zone)
        let isDelta = lastFullDay == today
        let next = nextPoll(after: now)
        let request = endpoint.request(isDelta ? Self.deltaPath : Self.fullPath)
        let outcome = await PollStep.apply(request, fetch: endpoint.fetch, sink: sink, at: now, next: next) { body throws(AdapterError) in
            // v1 carries NSW (and ACT) only; TAS has its own poller on v2.
            try NSWFuelCheckAdapter.adapt(body, isDelta: isDelta, fetchedAt: now).first { $0.update.provider == .nsw }
                ?? Adapted(update: ProviderUpdate(provider: .nsw, stations: [], prices: [], asOf: now, isDelta: isDelta))
        }
        if outcome.isApplied && !isDelta { lastFullDay = today }
        return outcome
    }

    nonisolated func nextPoll(after now: Date) -> Date {
        Self.window.clamp(now.addingTimeInterval(interval))
    }
}
