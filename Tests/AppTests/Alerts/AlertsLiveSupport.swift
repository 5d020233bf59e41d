import AlertStore
import API
import FakeRelay
import Foundation
import Fuel
import HTTP
import LivePostgres
import Postgres
import Push
import Synchronization
import Testing

@testable import App

/// A fresh migrated database per test on the live server (PETTY_TEST_DATABASE_URL), the evaluator and sender over it,
/// a fake relay, and snapshots published by hand.
final class AlertsLiveWorld: @unchecked Sendable {
    static var base: PostgresConfiguration? { LivePostgres.base }

    static let skipReason: Comment = "PETTY_TEST_DATABASE_URL is not set: the live alert engine tests run from Tests/postgres/run.sh"

    let client: PostgresClient
    let admin: PostgresClient
    let database: String
    let relay: FakeRelay
    let published = Mutex<FuelIndex>(FuelIndex(snapshot: .empty))
    let healthValue = Mutex(AlertsHealth())
    let token = Mutex<FenceToken?>(FenceToken(generation: 0, revision: 1))
    let t0 = Date(timeIntervalSince1970: 1_796_000_000)

    init(client: PostgresClient, admin: PostgresClient, database: String) throws {
        self.client = client
        self.admin = admin
        self.database = database
        relay = try FakeRelay().start()
    }

    /// Runs `body` with a world on a new database, then drops it.
    static func with(_ body: (AlertsLiveWorld) async throws -> Void) async throws {
        try await LivePostgres.withFreshDatabase(prefix: "alerts_engine") { configuration, admin in
            var configuration = configuration
            configuration.connectTimeout = 1
            let client = PostgresClient(configuration: configuration, maxConnections: 4, backoff: ReconnectBackoff(base: 0.05, cap: 0.2))
            defer { client.shutdown() }
            let world = try AlertsLiveWorld(client: client, admin: admin, database: configuration.database)
            defer { world.relay.stop() }
            try await Migrator().migrate(client)
            try await body(world)
        }
    }

    var health: AlertsHealthUpdate { { change in self.healthValue.withLock { change(&$0) } } }

    /// The one evaluator of the world, as a server runs one; `publish` lets it read each snapshot.
    private(set) lazy var evaluator = AlertEvaluatorService(
        client: client, current: { self.published.withLock { $0 } }, leadership: { self.token.withLock { $0 } },
        health: health, logger: Logger(label: "alerts", level: .critical, sink: .inMemory()), clock: { self.t0 })

    /// A sender on the fake relay; `sleep` is how its `run()` idles (a test's stands in for the clock).
    func sender(
        batch: Int = 500, pushBatch: Int = 100, retryDelay: TimeInterval = 30,
        sleep: @escaping @Sendable (Double) async throws -> Void = { _ in throw CancellationError() }, clock: @escaping @Sendable () -> Date = { Date() }
    ) -> AlertSenderService {
        let push = GorushClient(settings: PushSettings(url: relay.baseURL, topic: "au.petty.app", batchSize: pushBatch, retry: PushRetry(attempts: 2, base: 0.01)))
        return AlertSenderService(client: client, push: push, shareBase: try! PublicURL(validating: "https://petty.example"), mayAct: { true }, health: health,
                                  logger: Logger(label: "alerts", level: .critical, sink: .inMemory()), clock: clock, sleep: sleep, batch: batch, retryDelay: retryDelay)
    }

    /// Publishes snapshot `version` with station 1's U91 at `tenths` (and a steady filler so the price counts), and
    /// lets the evaluator read it.
    func publish(_ version: UInt64, station1 tenths: Int) async {
        await publish(version, at: t0.addingTimeInterval(Double(version) * 60), station1: tenths)
    }

    /// `publish(_:station1:)` stamped `instant` (the snapshot's `changedAt` and station 1's price `seenAt`).
    func publish(_ version: UInt64, at instant: Date, station1 tenths: Int) async {
        var entries = (50..<70).map { n in StationEntry(station: Self.station(n), prices: [StationPrice(fuel: .U91, price: PriceTenths(tenths: 1_900), updatedAt: t0, seenAt: t0)]) }
        entries.append(StationEntry(station: Self.station(1), prices: [StationPrice(fuel: .U91, price: PriceTenths(tenths: tenths), updatedAt: instant, seenAt: instant)]))
        let snapshot = Snapshot(version: version, changedAt: instant, entries: entries, statuses: [])
        published.withLock { $0 = FuelIndex(snapshot: snapshot) }
        await evaluator.tick()
    }

    /// Station 1's U91 from 190.0 (snapshot 1) to 184.0 (snapshot 2): across the 185.0 of `subscribe`'s alert.
    func crossTheThreshold() async {
        await publish(1, station1: 1_900)
        await publish(2, station1: 1_840)
    }

    static func station(_ n: Int) -> Station {
        Station(id: StationID(n), key: StationKey(provider: .nsw, sourceID: "\(n)"), name: "Station \(n)", brand: "Ampol", address: "1 Main St",
                suburb: "Town", state: .NSW, postcode: "2000", location: Coordinate(latitude: -33.87, longitude: 151.20 + Double(n) / 100))
    }

    /// Lets the evaluator read `index`, as a member's store publishes it.
    func evaluate(_ index: FuelIndex) async {
        published.withLock { $0 = index }
        await evaluator.tick()
    }

    /// A device with a `price_below` 185.0 alert on `station` (1 unless said); returns (device id, push token).
    func subscribe(token: String = "apns-token-0123456789abcdef", station: StationID = 1) async throws -> (Int64, String) {
        let (device, _) = try await DeviceRepository(client: client).create(platform: .ios, pushToken: token, timeZone: "Australia/Sydney")
        _ = try await AlertRepository(client: client).create(deviceID: device.id, AlertDefinition(
            kind: .priceBelow, fuel: .U91, target: .stations([station]), threshold: PriceTenths(tenths: 1_850)))
        return (device.id, token)
    }

    func notificationCount() async throws -> Int {
        try await client.query("SELECT count(*) AS n FROM notifications").first?.int("n") ?? -1
    }

    /// Refuses new connections to the test database and ends the open ones: the database is down for the client.
    func takeDatabaseDown() async throws {
        _ = try await admin.query("ALTER DATABASE \(database) WITH ALLOW_CONNECTIONS false")
        _ = try await admin.query("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()", [.text(database)])
    }

    func bringDatabaseBack() async throws {
        _ = try await admin.query("ALTER DATABASE \(database) WITH ALLOW_CONNECTIONS true")
    }
}
