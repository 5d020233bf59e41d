import Foundation
import Fuel

/// VIC Fair Fuel Open Data (PROVIDERS.md §5): brands once a day, prices every `interval` (hourly by default; the
/// data is 24 h delayed). The client's budget keeps requests under 10 a minute.
public actor VICPoller: ProviderPoller {
    public static let pricesPath = "/open-data/v1/fuel/prices"
    public static let brandsPath = "/open-data/v1/fuel/reference-data/brands"

    public nonisolated let provider = ProviderID.vic
    public nonisolated let interval: TimeInterval
    let endpoint: ProviderEndpoint
    private var brands: [String: String] = [:]
    private var brandsFetchedAt: Date?

    public init(client: ProviderClient, auth: ConsumerIDAuth, base: URL, interval: TimeInterval, timeout: TimeInterval) {
        self.endpoint = ProviderEndpoint(client: client, auth: auth, base: base, timeout: timeout)
        self.interval = interval
    }

    public nonisolated var plan: String { "vic (every \(Int(interval))s, brands daily; data is 24 h delayed)" }

    public func poll(at now: Date, sink: any ProviderSink) async -> PollOutcome {
        let next = now.addingTimeInterval(interval)
        var notes: [String] = []
        if brandsFetchedAt.map({ now.timeIntervalSince($0) >= 86_400 }) ?? true {
            switch await PollStep.read(endpoint.request(Self.brandsPath), fetch: endpoint.fetch, adapt: FairFuelAdapter.brands) {
            case .success(let value):
                brands = value
                brandsFetchedAt = now
            case .failure(let failure):
                // Stations without brand names would be a silent regression; only go on with cached names.
                guard !brands.isEmpty else { return PollOutcome(failure.outcome, next: next) }
                notes.append("brand refresh failed (\(failure.request): \(failure.error)); using cached brands")
            }
        }
        return await PollStep.apply(endpoint.request(Self.pricesPath), fetch: endpoint.fetch, sink: sink, at: now, next: next, notes: notes) { body throws(AdapterError) in
            try FairFuelAdapter.adapt(body, brands: brands, fetchedAt: now)
        }
    }
}
