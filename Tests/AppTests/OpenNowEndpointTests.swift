import Foundation
import Fuel
import HTTP
import Synchronization
import Testing
@testable import API
@testable import App

/// `open_now`, `open_24h`, `membership_required` on the wire: judged per request at the provider's clock, the
/// `open_now=true` filter, and a cheapest pick that skips closed and members-only stations unless asked.
@Suite(.serialized) struct OpenNowEndpointTests {
    final class Wall: Sendable {
        let now: Mutex<Date>
        init(_ date: Date) { now = Mutex(date) }
        func set(_ date: Date) { now.withLock { $0 = date } }
        func read() -> Date { now.withLock { $0 } }
    }

    /// Monday 2026-11-23 in Sydney (UTC+11 in summer).
    static func sydney(_ hour: Int, _ minute: Int, _ second: Int = 0) -> Date {
        var components = DateComponents(year: 2026, month: 11, day: 23, hour: hour, minute: minute, second: second)
        components.timeZone = TimeZone(identifier: "Australia/Sydney")
        return Calendar(identifier: .gregorian).date(from: components)!
    }

    let wall: Wall
    let ids: [String: Int]
    let app: Application

    /// One app for the whole suite (building one renders the whole sample); the tests run one at a time and each
    /// starts with the wall back at 05:59:59, where it stood when the app was built.
    static let shared = Result { try OpenNowEndpointTests(wall: Wall(sydney(5, 59, 59))) }

    init() throws {
        let shared = try Self.shared.get()
        shared.wall.set(Self.sydney(5, 59, 59))
        (wall, ids, app) = (shared.wall, shared.ids, shared.app)
    }

    private init(wall: Wall) throws {
        self.wall = wall
        let (app, store) = try buildApplication(
            AppTestSupport.config(), logger: AppTestSupport.quietLogger(), clock: { [wall] in wall.read() },
            dataset: AppTestSupport.sampleDataset)
        let weekdays = WeeklyHours(days: Array(repeating: .open(from: 360, to: 1_320), count: 5) + [.closed, .closed])!
        let stations: [(String, StationAccess?, Int)] = [
            ("members", StationAccess(open24h: true, membershipRequired: true), 1_700),
            ("weekdays", StationAccess(hours: weekdays), 1_750),
            ("allhours", StationAccess(open24h: true, membershipRequired: false), 1_800),
            ("unknown", nil, 1_850),
        ]
        let records = stations.enumerated().map { index, row in
            StationRecord(
                key: StationKey(provider: .nsw, sourceID: "open-\(row.0)"), name: row.0, brand: "Test", address: "\(index) George St",
                suburb: "Sydney", state: .NSW, postcode: "2000",
                location: Coordinate(latitude: -33.87 + Double(index) * 0.001, longitude: 151.21), access: row.1)
        }
        let instant = Self.sydney(5, 0)
        let prices = zip(records, stations).map { PriceRecord(station: $0.key, fuel: .U91, price: PriceTenths(tenths: $1.2), updatedAt: instant) }
        #expect(store.apply(ProviderUpdate(provider: .nsw, stations: records, prices: prices, asOf: instant), source: .live, at: instant).isApplied)
        var ids: [String: Int] = [:]
        for entry in store.current.snapshot.entries where entry.station.key.sourceID.hasPrefix("open-") {
            ids[String(entry.station.key.sourceID.dropFirst(5))] = entry.id.rawValue
        }
        self.ids = ids
        self.app = app
    }

    func station(_ name: String) throws -> (json: [String: Any], etag: String?) {
        let res = try app.test(.GET, "/v1/stations/\(ids[name]!)")
        return (try require(try AppTestSupport.json(res)["data"] as? [String: Any]), res.headers.first(name: "ETag"))
    }

    func cheapest(_ query: String = "") throws -> [String] {
        let body = try AppTestSupport.json(try app.test(.GET, "/v1/prices/cheapest?fuel=U91&near=-33.87,151.21&radius_km=1" + query))
        return try require(body["data"] as? [[String: Any]]).compactMap { ($0["station"] as? [String: Any])?["name"] as? String }
    }

    @Test func stationsSayWhatTheProviderPublishes() throws {
        let members = try station("members").json
        #expect(members["open_24h"] as? Bool == true)
        #expect(members["membership_required"] as? Bool == true)
        #expect(members["open_now"] as? Bool == true)
        let unknown = try station("unknown").json
        #expect(unknown["open_24h"] is NSNull && unknown["membership_required"] is NSNull && unknown["open_now"] is NSNull)
    }

    @Test func openNowFollowsTheWallClockForLiveDataAcrossTheOpeningMinute() throws {
        let before = try station("weekdays")
        #expect(before.json["open_now"] as? Bool == false)
        wall.set(Self.sydney(6, 0))
        let after = try station("weekdays")
        #expect(after.json["open_now"] as? Bool == true)
        #expect(before.etag != after.etag)
        wall.set(Self.sydney(22, 0))
        #expect(try station("weekdays").json["open_now"] as? Bool == false)
        let list = try AppTestSupport.json(try app.test(.GET, "/v1/stations?ids=\(ids["weekdays"]!)"))
        #expect((list["data"] as? [[String: Any]])?.first?["open_now"] as? Bool == false)
    }

    // The share link's JSON is the /v1 station, byte for byte, on both sides of the opening minute; neither carries
    // the lists' sync_token.
    @Test func theShareLinksJSONIsTheV1StationOnBothSidesOfTheOpeningMinute() throws {
        let id = ids["weekdays"]!
        for time in [Self.sydney(5, 59, 59), Self.sydney(6, 0)] {
            wall.set(time)
            let v1 = try app.test(.GET, "/v1/stations/\(id)")
            let share = try app.test(.GET, "/stations/\(id)", headers: ["Accept": "application/json"])
            #expect(share.body == v1.body, "at \(time)")
            #expect(share.headers.first(name: "ETag") == v1.headers.first(name: "ETag"), "at \(time)")
            #expect(!v1.bodyString.contains("sync_token"), "at \(time)")
            #expect(v1.bodyString.contains("\"open_now\":\(time == Self.sydney(6, 0))"), "at \(time)")
        }
    }

    @Test func openNowTrueKeepsOnlyStationsKnownToBeOpen() throws {
        let path = "/v1/stations?near=-33.87,151.21&radius_km=1&brand=Test&open_now=true"
        func names() throws -> Set<String> {
            Set(try AppTestSupport.list(try app.test(.GET, path)).data.compactMap { $0["name"] as? String })
        }
        #expect(try names() == ["members", "allhours"])
        wall.set(Self.sydney(6, 0))
        #expect(try names() == ["members", "weekdays", "allhours"])
    }

    @Test func openNowTrueKeepsUnknownHoursOnlyInAStateThatPublishesNoAccessFacts() throws {
        let sample = try AppTestSupport.sampleApp(clock: { [wall] in wall.read() })
        func list(_ app: Application, _ query: String) throws -> (total: Int, data: [[String: Any]]) {
            let body = try AppTestSupport.json(try app.test(.GET, "/v1/stations?\(query)"))
            return (try require((body["meta"] as? [String: Any])?["total"] as? Int), try require(body["data"] as? [[String: Any]]))
        }
        // The NSW sample carries no access fact at all: every station is kept, saying it does not know.
        let nswSample = try list(sample, "state=NSW&open_now=true&limit=500")
        let everyNSW = try list(sample, "state=NSW&limit=500").total
        #expect(nswSample.total > 0 && nswSample.total == everyNSW)
        #expect(nswSample.data.allSatisfy { $0["open_now"] is NSNull })
        let cheapest = try AppTestSupport.json(try sample.test(.GET, "/v1/prices/cheapest?fuel=U91&state=NSW&open_now=true&limit=3"))
        #expect((cheapest["data"] as? [[String: Any]])?.count == 3)
        // VIC publishes hours: only stations judged open are kept.
        let vic = try list(sample, "state=VIC&open_now=true&limit=500")
        #expect(vic.total > 0 && vic.data.allSatisfy { $0["open_now"] as? Bool == true })
        // This suite's NSW has live stations with facts: there the unknown ones are left out.
        let nsw = try list(app, "state=NSW&open_now=true&limit=500")
        #expect(nsw.data.compactMap { $0["name"] as? String }.sorted() == ["allhours", "members"])
    }

    @Test func theCheapestPickSkipsClosedAndMembersOnlyStationsUnlessAsked() throws {
        #expect(try cheapest() == ["allhours", "unknown"])
        #expect(try cheapest("&include_members_only=true") == ["members", "allhours", "unknown"])
        #expect(try cheapest("&include_closed=true") == ["weekdays", "allhours", "unknown"])
        #expect(try cheapest("&open_now=true") == ["allhours"])
        wall.set(Self.sydney(6, 0))
        #expect(try cheapest() == ["weekdays", "allhours", "unknown"])
    }

    @Test func sampleDataIsJudgedAtItsRecordingNotTheWallClock() throws {
        // The WA sample's clock is 14:30 WST on 22 Apr (when tomorrow's prices were published); the wall clock
        // here is a Monday dawn in November. A 24/7 site is open either way; Walkaway General Store's "closed now"
        // was observed at the 16:00 fetch, 90 minutes from the sample's clock: too far to speak for it, so unknown.
        let sample = AppTestSupport.sampleDataset.snapshot.entries
        let allHours = try require(sample.first { $0.station.state == .WA && $0.station.access?.open24h == true })
        let walkaway = try require(sample.first { $0.station.key.sourceID == "site-992" })
        func openNow(_ id: StationID) throws -> Any? {
            try require(try AppTestSupport.json(try app.test(.GET, "/v1/stations/\(id.rawValue)"))["data"] as? [String: Any])["open_now"]
        }
        #expect(try openNow(allHours.id) as? Bool == true)
        #expect(try openNow(walkaway.id) is NSNull)
        #expect(walkaway.station.access?.closedNow == true)
        // Judged at the observation's own instant, the flag speaks.
        let clocks = DataClocks(snapshot: AppTestSupport.sampleDataset.snapshot)
        #expect(OpenNowJudge(clocks: clocks, wall: wall.read())(walkaway.station) == nil)
        #expect(OpenNow.isOpen(walkaway.station.access, in: .WA, at: walkaway.station.access!.observedAt!) == false)
    }

    @Test func aVICSampleStationWithHoursIsJudgedInMelbourneAtTheRecording() throws {
        let snapshot = AppTestSupport.sampleDataset.snapshot
        let clocks = DataClocks(snapshot: snapshot)
        let recorded = clocks.now(for: ProviderID.vic, wall: wall.read())
        let withHours = snapshot.entries.filter { $0.station.state == .VIC && $0.station.access?.hours != nil && $0.station.access?.open24h == false }
        #expect(withHours.count > 50)
        var seen = Set<Bool>()
        for entry in withHours.prefix(40) {
            let expected = OpenNow.isOpen(entry.station.access, in: .VIC, at: recorded)
            let json = try require(try AppTestSupport.json(try app.test(.GET, "/v1/stations/\(entry.id.rawValue)"))["data"] as? [String: Any])
            #expect(json["open_now"] as? Bool == expected)
            expected.map { _ = seen.insert($0) }
        }
        #expect(!seen.isEmpty)
    }
}
