import Foundation
import Fuel
import HTTP
import Synchronization
import Testing
@testable import API
@testable import App
@testable import Providers

/// WA share links across the switch from the bundled sample (FuelWatch JSON sites, keyed `site-<id>`) to live RSS
/// (keyed by rounded coordinates), and across a small RSS coordinate edit: a fake FuelWatch on loopback serves the
/// sample's own sites as RSS, and a WA poller merges it into the app's store.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct StationIdentityTests {
    /// 10:00 Perth on the trading day after the sample's (its tomorrow prices are for 2026-04-23).
    static let day = CalendarDay("2026-04-23")!
    static let now = day.instant(hour: 10, in: WATradingDay.zone)

    /// FuelWatch's RSS for a list of sites, the metres north each is moved by changeable while running.
    final class SitesFeed: Sendable {
        let app: Application
        private let shiftDegrees = Mutex(0.0)
        let sites: [Station]

        init(sites: [Station]) {
            self.sites = sites
            app = Application(environment: .testing, logger: AppTestSupport.quietLogger())
            app.server.threads = 1
            app.get("fuelwatch", "fuelWatchRSS") { [self] _ -> Response in
                Response(contentType: "text/xml; charset=utf-8", body: Array(feed().utf8))
            }
        }

        func shiftNorth(metres: Double) { shiftDegrees.withLock { $0 = metres / 111_195 } }

        func feed() -> String {
            let shift = shiftDegrees.withLock { $0 }
            return FakeFuelWatch.rss(sites.enumerated().map { index, site in
                FakeFuelWatch.Item(
                    name: site.name, brand: site.brand, address: site.address, suburb: site.suburb, day: StationIdentityTests.day,
                    price: 180.0 + Double(index % 20), latitude: site.location.latitude - shift, longitude: site.location.longitude)
            })
        }
    }

    @Test func waShareLinksSurviveTheSampleToLiveSwitchAndACoordinateEdit() async throws {
        let sample = AppTestSupport.sampleWithAllOfWA
        let waSample = sample.snapshot.entries.filter { $0.station.state == .WA }
        let sampleIDs = Set(waSample.map(\.id))
        #expect(waSample.count == 80)
        let feed = SitesFeed(sites: waSample.map(\.station))
        let fakeURL = URL(string: "http://127.0.0.1:\(try feed.app.startLive())")!
        defer { feed.app.shutdown() }
        let clock = ManualClock(Self.now)
        let (app, store) = try buildApplication(
            AppTestSupport.config(), logger: AppTestSupport.quietLogger(), clock: { [clock] in clock.now }, dataset: sample)
        let poller = WAPoller(
            client: ProviderClient(options: .init(retry: RetryPolicy(maxAttempts: 1))), base: fakeURL, interval: 1800,
            timeout: 30, products: [.unleaded], spacing: 0)  // loopback, but the whole suite may be running beside it
        let group = PollerGroup(pollers: [poller], sink: FuelStoreSink(store: store), log: PollLog { _, _ in }, clock: { [clock] in clock.now })

        func liveWA() -> [StationEntry] { store.current.snapshot.entries.filter { $0.station.state == .WA } }

        // 1. Live RSS replaces the sample: every site at identical coordinates keeps its sample id.
        var failures = 0
        _ = await group.step(poller, failures: &failures)
        #expect(store.current.snapshot.status(of: .wa)?.source == .live)
        let afterSwitch = liveWA()
        #expect(afterSwitch.allSatisfy { $0.station.sourceID.hasPrefix("site-") })  // filed under the known key
        #expect(Set(afterSwitch.map(\.id)) == sampleIDs)
        #expect(store.current.dataset.registry.aliases.count == 80)
        for id in sampleIDs.sorted().prefix(5) {
            let response = try app.test(.GET, "/v1/stations/\(id.rawValue)")
            #expect(response.status == .ok, "/v1/stations/\(id.rawValue)")
            #expect(response.bodyString.contains("\"source\":\"live\""))
            #expect(try app.test(.GET, "/stations/\(id.rawValue)").status == .ok)
        }

        // 2. FuelWatch moves every site 4 m north: about half the rounded-coordinate keys change; no id does.
        feed.shiftNorth(metres: 4)
        clock.set(Self.now.addingTimeInterval(1_800))
        _ = await group.step(poller, failures: &failures)
        let afterEdit = liveWA()
        #expect(Set(afterEdit.map(\.id)) == sampleIDs)
        #expect(afterEdit.count == 80)
        #expect(store.current.snapshot.status(of: .wa)?.pendingRemoval == nil)
        let moved = afterEdit.filter { entry in
            let before = afterSwitch.first { $0.id == entry.id }!
            return abs(before.station.location.latitude - entry.station.location.latitude) > 0.00003
        }
        #expect(moved.count == 80)  // the station took the new coordinates
        let registry = store.current.dataset.registry
        #expect(registry.aliases.count > 80)  // the re-keyed sites added aliases
        #expect(registry.lastAssigned == sample.registry.lastAssigned)  // no id was handed out
    }
}
