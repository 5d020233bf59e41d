import Foundation
import Fuel

/// TAS through NSW FuelCheck v2 `/FuelPriceCheck/v2/fuel/prices?states=TAS` (same key and token as NSW), every
/// `interval` between 05:00 and 23:00 Hobart. TAS station codes collide with NSW's, so the adapter keys them `.tas`.
public actor TASPoller: ProviderPoller {
    public static let path = "/FuelPriceCheck/v2/fuel/prices"
    /// NSW's polling hours, in Hobart.
    static let window = NSWPoller.window.in(AustralianState.TAS.zone)

    public nonisolated let provider = ProviderID.tas
    public nonisolated let interval: TimeInterval
    let endpoint: ProviderEndpoint

    public init(client: ProviderClient, auth: NSWOAuth, base: URL, interval: TimeInterval, timeout: TimeInterval) {
        self.endpoint = ProviderEndpoint(client: client, auth: auth, base: base, timeout: timeout)
        self.interval = interval
    }

    public nonisolated var plan: String {
        "tas (every \(Int(interval))s 05:00–23:00 Hobart on the NSW key; ≈\(Self.callsPerDay(interval: interval)) calls/day)"
    }

    public static func callsPerDay(interval: TimeInterval) -> Int { window.polls(every: interval) }

    public func poll(at now: Date, sink: any ProviderSink) async -> PollOutcome {
        let next = Self.window.clamp(now.addingTimeInterval(interval))
        let request = endpoint.request(Self.path, query: [("states", "TAS")])
        return await PollStep.apply(request, fetch: endpoint.fetch, sink: sink, at: now, next: next) { body throws(AdapterError) in
            // No TAS rows is an empty full update: the merge rejects it (stale) and keeps what we have. Only the update
            // is taken: this step has never logged a skipped-rows note.
            let update = try NSWFuelCheckAdapter.adapt(body, isDelta: false, fetchedAt: now).first { $0.update.provider == .tas }?.update
            return Adapted(update: update ?? ProviderUpdate(provider: .tas, stations: [], prices: [], asOf: now))
        }
    }
}
