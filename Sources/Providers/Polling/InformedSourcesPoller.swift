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
    let client: ProviderClient
    let auth: SubscriberTokenAuth
    let base: URL
    let timeout: TimeInterval

    private var sites: [StationRecord] = []
    private var brands: [Int: String] = [:]
    private var suburbs: [Int: String] = [:]
    private var referenceFetchedAt: Date?

    public init(region: InformedSourcesAdapter.Region, client: ProviderClient, auth: SubscriberTokenAuth, base: URL, interval: TimeInterval, timeout: TimeInterval) {
        self.region = region
        self.provider = region.provider
        self.client = client
        self.auth = auth
        self.base = base
        self.interval = max(60, interval)
        self.timeout = timeout
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
        let request = ProviderRequest(base: base, path: Self.pricesPath, query: regionQuery, timeout: timeout)
        let adapted: Adapted
        switch await client.fetch(request, auth: auth) {
        case .failure(let failure): return PollOutcome(failure.outcome, next: next)
        case .success(let response):
            do {
                adapted = try InformedSourcesAdapter.prices(response.body, region: region, stations: sites, fetchedAt: now)
            } catch {
                return PollOutcome(PollFailure(adapter: error, request: request.label).outcome, next: next)
            }
        }
        if adapted.tally.skipped > 0 { notes.append("skipped \(adapted.tally)") }
        let report = sink.apply(adapted.update, at: now)
        return PollOutcome(.merged(report), next: next, notes: notes)
    }

    /// Brands and sites (required), suburb names (optional: without them stations have no suburb).
    private func refreshReference(now: Date) async -> Result<String?, PollFailure> {
        let brandsRequest = ProviderRequest(base: base, path: Self.brandsPath, query: [("countryId", "21")], timeout: timeout)
        switch await client.fetch(brandsRequest, auth: auth) {
        case .failure(let failure): return .failure(failure)
        case .success(let response):
            do { brands = try InformedSourcesAdapter.brands(response.body) } catch {
                return .failure(PollFailure(adapter: error, request: brandsRequest.label))
            }
        }
        var note: String?
        let regionsRequest = ProviderRequest(base: base, path: Self.regionsPath, query: [("countryId", "21")], timeout: timeout)
        switch await client.fetch(regionsRequest, auth: auth) {
        case .failure(let failure): note = "suburb names unavailable (\(failure.request): \(failure.error))"
        case .success(let response):
            do { suburbs = try InformedSourcesAdapter.suburbs(response.body) } catch {
                note = "suburb names unreadable (\(error))"
            }
        }
        let sitesRequest = ProviderRequest(base: base, path: Self.sitesPath, query: regionQuery, timeout: timeout)
        switch await client.fetch(sitesRequest, auth: auth) {
        case .failure(let failure): return .failure(failure)
        case .success(let response):
            let adapted: Adapted
            do {
                adapted = try InformedSourcesAdapter.sites(response.body, region: region, brands: brands, suburbs: suburbs, fetchedAt: now)
            } catch {
                return .failure(PollFailure(adapter: error, request: sitesRequest.label))
            }
            guard !adapted.update.stations.isEmpty else {
                return .failure(PollFailure(error: .implausible("site list has no usable sites"), request: sitesRequest.label))
            }
            sites = adapted.update.stations
            referenceFetchedAt = now
            return .success(note)
        }
    }
}

/// VIC Fair Fuel Open Data (PROVIDERS.md §5): brands once a day, prices every `interval` (hourly by default; the
/// data is 24 h delayed). The client's budget keeps requests under 10 a minute.
public actor VICPoller: ProviderPoller {
    public static let pricesPath = "/open-data/v1/fuel/prices"
    public static let brandsPath = "/open-data/v1/fuel/reference-data/brands"

    public nonisolated let provider = ProviderID.vic
    public nonisolated let interval: TimeInterval
    let client: ProviderClient
    let auth: ConsumerIDAuth
    let base: URL
    let timeout: TimeInterval
    private var brands: [String: String] = [:]
    private var brandsFetchedAt: Date?

    public init(client: ProviderClient, auth: ConsumerIDAuth, base: URL, interval: TimeInterval, timeout: TimeInterval) {
        self.client = client
        self.auth = auth
        self.base = base
        self.interval = interval
        self.timeout = timeout
    }

    public nonisolated var plan: String { "vic (every \(Int(interval))s, brands daily; data is 24 h delayed)" }

    public func poll(at now: Date, sink: any ProviderSink) async -> PollOutcome {
        let next = now.addingTimeInterval(interval)
        var notes: [String] = []
        if brandsFetchedAt.map({ now.timeIntervalSince($0) >= 86_400 }) ?? true {
            let request = ProviderRequest(base: base, path: Self.brandsPath, timeout: timeout)
            var failure: PollFailure?
            switch await client.fetch(request, auth: auth) {
            case .failure(let error): failure = error
            case .success(let response):
                do {
                    brands = try FairFuelAdapter.brands(response.body)
                    brandsFetchedAt = now
                } catch {
                    failure = PollFailure(adapter: error, request: request.label)
                }
            }
            if let failure {
                // Stations without brand names would be a silent regression; only go on with cached names.
                guard !brands.isEmpty else { return PollOutcome(failure.outcome, next: next) }
                notes.append("brand refresh failed (\(failure.request): \(failure.error)); using cached brands")
            }
        }
        let request = ProviderRequest(base: base, path: Self.pricesPath, timeout: timeout)
        switch await client.fetch(request, auth: auth) {
        case .failure(let failure): return PollOutcome(failure.outcome, next: next)
        case .success(let response):
            let adapted: Adapted
            do {
                adapted = try FairFuelAdapter.adapt(response.body, brands: brands, fetchedAt: now)
            } catch {
                return PollOutcome(PollFailure(adapter: error, request: request.label).outcome, next: next)
            }
            if adapted.tally.skipped > 0 { notes.append("skipped \(adapted.tally)") }
            let report = sink.apply(adapted.update, at: now)
            return PollOutcome(.merged(report), next: next, notes: notes)
        }
    }
}
