import AlertStore
import Foundation
import Testing

@testable import App
@testable import Fuel

/// A mixed deployment: WA polled live while NSW still serves the bundled sample payloads (what a server started with
/// `PETTY_PROVIDERS=wa` shows for the other states). The evaluator against a real PostgreSQL (Tests/postgres/run.sh).
@Suite(.serialized, .enabled(if: AlertsLiveWorld.base != nil, AlertsLiveWorld.skipReason))
struct AlertsLiveSampleDataTests {
    static let waStation = 101
    static let nswStation = 2

    /// Snapshot `version`: the WA station and the NSW station at the given prices (first seen now), NSW's data from
    /// `nswSource`, and steady fillers in both states so every price is plausible.
    static func publish(_ world: AlertsLiveWorld, _ version: UInt64, wa: Int, nsw: Int, nswSource: DataSource = .sample) {
        let instant = world.t0.addingTimeInterval(Double(version) * 60)
        func entry(_ n: Int, _ tenths: Int, at: Date) -> StationEntry {
            StationEntry(station: station(n), prices: [StationPrice(fuel: .U91, price: PriceTenths(tenths: tenths), updatedAt: at, seenAt: at)])
        }
        var entries = (50..<70).map { entry($0, 1_900, at: world.t0) } + (150..<170).map { entry($0, 1_900, at: world.t0) }
        entries += [entry(waStation, wa, at: instant), entry(nswStation, nsw, at: instant)]
        let snapshot = Snapshot(version: version, changedAt: instant, entries: entries, statuses: [
            ProviderStatus(provider: .wa, source: .live, asOf: instant),
            ProviderStatus(provider: .nsw, source: nswSource, asOf: instant),
        ])
        world.published.withLock { $0 = FuelIndex(snapshot: snapshot) }
    }

    /// NSW below 100, WA (Perth) from 100.
    static func station(_ n: Int) -> Station {
        let wa = n >= 100
        return Station(
            id: StationID(n), key: StationKey(provider: wa ? .wa : .nsw, sourceID: "\(n)"), name: "Station \(n)", brand: "Ampol",
            address: "1 Main St", suburb: "Town", state: wa ? .WA : .NSW, postcode: wa ? "6000" : "2000",
            location: wa ? Coordinate(latitude: -31.95, longitude: 115.86 + Double(n - 100) / 100)
                : Coordinate(latitude: -33.87, longitude: 151.20 + Double(n) / 100))
    }

    /// A device with a `price_below` 185.0 alert on `station`; returns the alert's id.
    static func subscribe(_ world: AlertsLiveWorld, station: Int) async throws -> Int64 {
        let (device, _) = try await DeviceRepository(client: world.client).create(platform: .ios, pushToken: "token-\(station)-0123456789", timeZone: "Australia/Perth")
        let alert = try await AlertRepository(client: world.client).create(deviceID: device.id, AlertDefinition(
            kind: .priceBelow, fuel: .U91, target: .stations([StationID(station)]), threshold: PriceTenths(tenths: 1_850)))
        return try #require(alert).id
    }

    static func decidedAlerts(_ world: AlertsLiveWorld) async throws -> [Int64] {
        try await world.client.query("SELECT alert_id FROM notifications ORDER BY id").rows.map { Int64(try $0.int("alert_id")) }
    }

    @Test func aSampleProvidersPricesNeverTriggerAlertsWhileTheLiveProvidersDo() async throws {
        try await AlertsLiveWorld.with { world in
            let waAlert = try await Self.subscribe(world, station: Self.waStation)
            let nswAlert = try await Self.subscribe(world, station: Self.nswStation)
            let evaluator = world.evaluator
            Self.publish(world, 1, wa: 1_900, nsw: 1_800)
            await evaluator.tick()
            // WA crosses; the sample NSW price moves and stays below the threshold.
            Self.publish(world, 2, wa: 1_840, nsw: 1_790)
            await evaluator.tick()
            var decided = try await Self.decidedAlerts(world)
            #expect(decided == [waAlert])
            // The sample price re-arms and crosses again: still nothing.
            Self.publish(world, 3, wa: 1_840, nsw: 1_900)
            await evaluator.tick()
            Self.publish(world, 4, wa: 1_840, nsw: 1_700)
            await evaluator.tick()
            decided = try await Self.decidedAlerts(world)
            #expect(decided == [waAlert], "a sample price decided nothing")
            // NSW goes live below the threshold: that price is news.
            Self.publish(world, 5, wa: 1_840, nsw: 1_700, nswSource: .live)
            await evaluator.tick()
            decided = try await Self.decidedAlerts(world)
            #expect(decided == [waAlert, nswAlert])
        }
    }
}
