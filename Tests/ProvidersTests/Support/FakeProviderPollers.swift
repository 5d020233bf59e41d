import Foundation
import Fuel
@testable import Providers

/// Pollers aimed at a `FakeProvider`, with quick retries and a short deadline, and a store to merge into.
struct PollerHarness {
    let fake: FakeProvider
    let store = FuelStore()
    let statuses = ProviderStatusStore()
    var sink: FuelStoreSink<Void> { FuelStoreSink(store: store) }
    static let retry = RetryPolicy(maxAttempts: 2, baseDelay: 0.01, maxDelay: 0.02, maxRetryAfter: 1)

    init(_ fake: FakeProvider, seed: Dataset? = nil) {
        self.fake = fake
        if let seed { store.replace(with: seed) }
    }

    var settings: ProviderSettings {
        var settings = ProviderSettings(
            enabled: ProviderID.allCases,
            credentials: .init(nswAPIKey: FakeProvider.apiKey, nswAPISecret: FakeProvider.apiSecret, qldToken: FakeProvider.subscriberToken,
                               saToken: FakeProvider.subscriberToken, vicConsumerID: FakeProvider.consumerID),
            baseURLs: Dictionary(uniqueKeysWithValues: ProviderID.allCases.map { ($0, fake.baseURL) }),
            requestTimeout: 1)
        settings.maxResponseBytes = 4 << 20
        return settings
    }

    func client(cap: Int = 4 << 20) -> ProviderClient {
        ProviderClient(options: .init(maxResponseBytes: cap, retry: Self.retry), secrets: settings.credentials.all)
    }

    /// Loopback answers in milliseconds, but a loaded 2-core machine can stall a second: deadlines that are not
    /// what a test is about are generous, so a slow moment never reads as a provider failure (or a second token).
    static let roomyTimeout: TimeInterval = 10

    var nswAuth: NSWOAuth {
        NSWOAuth(base: fake.baseURL, apiKey: FakeProvider.apiKey, apiSecret: FakeProvider.apiSecret, timeout: Self.roomyTimeout)
    }

    func nsw(auth: NSWOAuth? = nil, cap: Int = 4 << 20, timeout: TimeInterval = roomyTimeout) -> NSWPoller {
        NSWPoller(client: client(cap: cap), auth: auth ?? nswAuth, base: fake.baseURL, interval: 1800, timeout: timeout)
    }

    func tas() -> TASPoller { TASPoller(client: client(), auth: nswAuth, base: fake.baseURL, interval: 3600, timeout: Self.roomyTimeout) }

    func wa() -> WAPoller { WAPoller(client: client(), base: fake.baseURL, interval: 1800, timeout: Self.roomyTimeout, spacing: 0) }

    func informed(_ region: InformedSourcesAdapter.Region) -> InformedSourcesPoller {
        InformedSourcesPoller(region: region, client: client(), auth: SubscriberTokenAuth(token: FakeProvider.subscriberToken),
                              base: fake.baseURL, interval: 300, timeout: Self.roomyTimeout)
    }

    func vic() -> VICPoller {
        VICPoller(client: client(), auth: ConsumerIDAuth(consumerID: FakeProvider.consumerID), base: fake.baseURL, interval: 3600, timeout: Self.roomyTimeout)
    }

    /// Runs one step through `PollerGroup` (failure marking, next poll, log line) and returns the log lines.
    @discardableResult
    func step(_ poller: any ProviderPoller, failures: Int = 0, at clock: @escaping @Sendable () -> Date = { Date() }) async -> [String] {
        let lines = LogLines()
        let group = PollerGroup(pollers: [poller], sink: sink, log: PollLog { _, line in lines.append(line) },
                                backoff: .init(base: 30), statuses: statuses, clock: clock)
        var failures = failures
        _ = await group.step(poller, failures: &failures)
        return lines.all
    }

    var snapshot: Snapshot { store.current.snapshot }
    /// What `/health` would say of `provider`: its polls from the status store, its data from the snapshot.
    func status(_ provider: ProviderID) -> PolledStatus? {
        let data = snapshot.status(of: provider)
        let health = statuses.health(of: provider)
        guard data != nil || health != nil else { return nil }
        return PolledStatus(health: health ?? ProviderHealth(), data: data)
    }
    func stations(_ provider: ProviderID) -> [StationEntry] { snapshot.entries.filter { $0.station.provider == provider } }
}

final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}

struct PolledStatus {
    var health: ProviderHealth
    var data: ProviderStatus?
    var state: ProviderHealth.State { health.state }
    var source: DataSource? { data?.source }
    var lastError: String? { health.lastError }
    var consecutiveFailures: Int { health.consecutiveFailures }
    var nextPoll: Date? { health.nextPoll }
    var stationCount: Int { data?.stationCount ?? 0 }
}

/// FuelWatch faked for the WA trading day the wall clock is in, with a WA poller aimed at it (tests step the poller
/// at chosen Perth times of that day). Stop `fake` when done.
struct WATradingDayPolls {
    let today: CalendarDay
    let fake: FakeProvider
    let harness: PollerHarness
    let poller: WAPoller

    init() throws {
        today = WATradingDay.tradingDay(containing: Date())
        fake = try FakeProvider(waToday: today).start()
        harness = PollerHarness(fake)
        poller = harness.wa()
    }
}
