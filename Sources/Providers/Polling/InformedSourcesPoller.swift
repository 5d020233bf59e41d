import Foundation
import Fuel

/// QLD and SA (Informed Sources Direct API, PROVIDERS.md §3–4): brands, suburb names and sites once a day,
/// prices every `interval` (never more than once a minute, per the spec). Each price poll is a full update:
/// the cached sites with their prices.
public actor InformedSourcesPoller: ProviderPoller {
    public static let sitesPath = "/Subscriber/GetFullSiteDetails"
    public static let brandsPath = "/Subscriber/GetCountryBrands"
    public static let regionsPath = "/Subscriber/GetCountryGeographicRegions"
    public static let pricesPath = "/Price/GetSitesPrices"
    static let referenceInterval: TimeInterval = 86_400

    public nonisolated let provider: ProviderID
    public nonisolated let interval: TimeInterval
    let region: InformedSourcesAdapter.Region
    let endpoint: ProviderEndpoint

    private var sites: [StationRecord] = []
    private var brands: [Int: String] = [:]
    private var suburbs: [Int: String] = [:]
    private var referenceFetchedAt: Date?

    public init(region: InformedSourcesAdapter.Region, client: ProviderClient, auth: SubscriberTokenAuth, base: URL, interval: TimeInterval, timeout: TimeInterval) {
        self.region = region
        self.provider = region.provider
        self.endpoint = ProviderEndpoint(client: client, auth: auth, base: base, timeout: timeout)
        self.interval = max(60, interval)
    }

    public nonisolated var plan: String { "\(provider.rawValue) (prices every \(Int(interval))s, sites daily)" }

    var regionQuery: [(String, String)] {
        [("countryId", "21"), ("geoRegionLevel", "3"), ("geoRegionId", region == .qld ? "1" : "4")]
    }

    public func poll(at now: Date, sink: any ProviderSink) async -> PollOutcome {
        let next = now.addingTimeInterval(interval)
        var notes: [String] = []
        if sites.isEmpty || referenceFetchedAt.map({ now.timeIntervalSince($0) >= Self.referenceInterval }) ?? true {
            switch await refreshReference(now: now) {
            case .success(let note): if let note { notes.append(note) }
            case .failure(let failure):
                // With yesterday's sites we can still poll prices; without any we cannot.
                guard !sites.isEmpty else { return PollOutcome(failure.outcome, next: next) }
                notes.append("site refresh failed (\(failure.request): \(failure.error)); using cached sites")
            }
        }
        return await PollStep.apply(endpoint.request(Self.pricesPath, query: regionQuery), fetch: endpoint.fetch, sink: sink, at: now, next: next, notes: notes) { body throws(AdapterError) in
            try InformedSourcesAdapter.prices(body, region: region, stations: sites, fetchedAt: now)
        }
    }

    /// Brands and sites (required), suburb names (optional: without them stations have no suburb).
    private func refreshReference(now: Date) async -> Result<String?, PollFailure> {
        let fetch = endpoint.fetch
        let brandsRequest = endpoint.request(Self.brandsPath, query: [("countryId", "21")])
        switch await PollStep.read(brandsRequest, fetch: fetch, adapt: InformedSourcesAdapter.brands) {
        case .failure(let failure): return .failure(failure)
        case .success(let value): brands = value
        }
        var note: String?
        let regionsRequest = endpoint.request(Self.regionsPath, query: [("countryId", "21")])
        // Unreadable names are told apart from an unanswered request, so the adapter's error is kept as a value.
        let regions = await PollStep.read(regionsRequest, fetch: fetch) { body in
            Result { () throws(AdapterError) in try InformedSourcesAdapter.suburbs(body) }
        }
        switch regions {
        case .failure(let failure): note = "suburb names unavailable (\(failure.request): \(failure.error))"
        case .success(.failure(let error)): note = "suburb names unreadable (\(error))"
        case .success(.success(let value)): suburbs = value
        }
        let sitesRequest = endpoint.request(Self.sitesPath, query: regionQuery)
        let sitesRead = await PollStep.read(sitesRequest, fetch: fetch) { body throws(AdapterError) in
            try InformedSourcesAdapter.sites(body, region: region, brands: brands, suburbs: suburbs, fetchedAt: now)
        }
        switch sitesRead {
        case .failure(let failure): return .failure(failure)
        case .success(let adapted):
            guard !adapted.update.stations.isEmpty else {
                return .failure(PollFailure(error: .implausible("site list has no usable sites"), request: sitesRequest.label))
            }
            sites = adapted.update.stations
            referenceFetchedAt = now
            return .success(note)
        }
    }
}
