import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// Walkaway General Store (WA 3369, FuelWatch site 992) is closed on the recorded 22 Apr 2026 and
/// publishes the 23rd's prices, U91 218.0 and diesel 316.0. It is on `/v1/tomorrow` with `today: null`, keeps those
/// prices across a restart, and its share page shows them.
@Suite(.serialized) struct TomorrowWithoutTodayEndpointTests {
    static func walkawayID() throws -> Int {
        try require(AppTestSupport.sampleDataset.snapshot.entries.first { $0.station.key.sourceID == "site-992" }).id.rawValue
    }

    @Test func walkawayIsOnTheLiveBoardWithNoPriceToday() async throws {
        let id = try Self.walkawayID()
        #expect(id == 3369)
        let app = try AppTestSupport.sampleApp()
        let port = try app.startLive()
        defer { app.shutdown() }
        func get(_ query: String) async throws -> (body: Data, json: [String: Any]) {
            let got = try await LiveGet(port: port, "/v1/tomorrow?\(query)")
            #expect(got.status == 200, "\(query)")
            return (got.body, try got.json())
        }
        let (body, json) = try await get("state=WA&ids=\(id)")
        let data = try require(json["data"] as? [String: Any])
        #expect(data["available"] as? Bool == true)
        #expect(data["trading_day"] as? String == "2026-04-23")
        let rows = try require(data["stations"] as? [[String: Any]])
        #expect(rows.map { $0["station_id"] as? Int } == [id, id])
        #expect(rows.map { $0["fuel"] as? String } == ["U91", "DL"])
        #expect(rows.map { $0["tomorrow"] as? Double } == [218.0, 316.0])
        #expect(rows.allSatisfy { $0["today"] is NSNull && $0["difference"] is NSNull })
        #expect(rows.allSatisfy { $0["verdict"] as? String == "no_price_today" })
        #expect(rows.first?["name"] as? String == "Walkaway General Store")
        // The raw text says `null`, not an omitted key.
        #expect(String(decoding: body, as: UTF8.self).contains("\"today\":null,\"tomorrow\":218.0,\"difference\":null,\"verdict\":\"no_price_today\""))
        #expect(data["summary"] as? [String: Int] == ["today_cheaper": 0, "tomorrow_cheaper": 0, "same": 0, "no_price_today": 2])
        #expect((json["meta"] as? [String: Any])?["total"] as? Int == 2)

        // Over the whole board, every row is counted under exactly one verdict: the counts add up to `meta.total`.
        let all = try await get("state=WA").json
        let summary = try require((all["data"] as? [String: Any])?["summary"] as? [String: Int])
        #expect((summary["no_price_today"] ?? 0) >= 2)
        let total = try require((all["meta"] as? [String: Any])?["total"] as? Int)
        #expect(summary.values.reduce(0, +) == total)
    }

    /// The station's JSON (and the share link asked for JSON, the same bytes) carries what the page shows: an app
    /// reading `/v1/stations/3369` sees tomorrow's prices of the fuels it cannot sell today.
    @Test func itsJSONCarriesTomorrowsPricesForTheFuelsWithNoneToday() throws {
        let id = try Self.walkawayID()
        let app = try AppTestSupport.sharedSampleApp()
        let detail = try app.test(.GET, "/v1/stations/\(id)")
        let station = try require(try AppTestSupport.json(detail)["data"] as? [String: Any])
        #expect((station["prices"] as? [Any])?.isEmpty == true)
        let only = try require(station["tomorrow_only"] as? [[String: Any]])
        #expect(only.map { $0["fuel"] as? String } == ["U91", "DL"])
        #expect(only.map { ($0["tomorrow"] as? [String: Any])?["price"] as? Double } == [218.0, 316.0])
        #expect(only.allSatisfy { ($0["tomorrow"] as? [String: Any])?["day"] as? String == "2026-04-23" })
        let spec = try OpenAPISpec.load()
        let operation = try require(spec.operations.first { $0.method == "get" && $0.path == "/v1/stations/{id}" })
        let problems = spec.problems(with: ObservedResponse(detail), for: operation, label: "GET /v1/stations/\(id)")
        #expect(problems.isEmpty, "\(problems)")
        // The change feed hands a syncing app the same station object.
        let changes = try app.test(.GET, "/v1/prices/changes?ids=\(id)")
        #expect(changes.bodyString.contains("\"tomorrow_only\""), "\(changes.bodyString.prefix(300))")
        let feed = try require(spec.operations.first { $0.method == "get" && $0.path == "/v1/prices/changes" })
        #expect(spec.problems(with: ObservedResponse(changes), for: feed, label: "changes ids=\(id)").isEmpty)
        let shared = try app.test(.GET, "/stations/\(id)", headers: ["Accept": "application/json"])
        #expect(shared.body == detail.body)
        // A station with prices today has no such member: the usual object is unchanged.
        #expect(!(try app.test(.GET, "/v1/stations/1").bodyString.contains("tomorrow_only")))
    }

    @Test func itsSharePageShowsTomorrowsPrices() throws {
        let id = try Self.walkawayID()
        let app = try AppTestSupport.sharedSampleApp()
        let page = try app.test(.GET, "/stations/\(id)", headers: ["Accept": "text/html"]).bodyString
        #expect(page.contains("Tomorrow’s prices"))
        #expect(page.contains("no price today"))
        #expect(page.contains("218.0"))
        #expect(page.contains("316.0"))
        #expect(page.contains("class=\"verdict no_price_today\""))
    }

    /// The live FuelWatch sites feed on 24 Nov 2026 lists Walkaway closed with tomorrow's prices: saved at 14:35,
    /// loaded by the next server, promoted at 06:00 and not before.
    @Test func itsTomorrowPricesSurviveARestartAndArePromotedAt0600() throws {
        let day = CalendarDay("2026-11-24")!, next = day.advanced(by: 1)
        let walkaway = StationKey(provider: .wa, sourceID: "site-992")
        let record = StationRecord(
            key: walkaway, name: "Walkaway General Store", brand: "IND", address: "1 Evans Rd", suburb: "WALKAWAY", state: .WA,
            postcode: "6528", location: Coordinate(latitude: -28.940137, longitude: 114.801816))
        let update = ProviderUpdate(
            provider: .wa, stations: [record], prices: [],
            tomorrow: [
                TomorrowPriceRecord(station: walkaway, fuel: .U91, price: PriceTenths(tenths: 2_180), day: next.description),
                TomorrowPriceRecord(station: walkaway, fuel: .DL, price: PriceTenths(tenths: 3_160), day: next.description),
            ],
            asOf: day.instant(hour: 14, minute: 35, in: WATradingDay.zone))
        // Merged onto another WA site so the feed has a plausible price today.
        let open = StationKey(provider: .wa, sourceID: "site-1")
        var feed = update
        feed.stations.append(StationRecord(
            key: open, name: "Open Servo", brand: "IND", address: "2 Evans Rd", suburb: "WALKAWAY", state: .WA, postcode: "6528",
            location: Coordinate(latitude: -28.94, longitude: 114.80)))
        feed.prices.append(PriceRecord(station: open, fuel: .U91, price: PriceTenths(tenths: 2_000), updatedAt: WATradingDay.start(of: day)))
        let (dataset, report) = Dataset().merging(feed, at: day.instant(hour: 14, minute: 35, in: WATradingDay.zone))
        #expect(report.isApplied)

        let directory = AppTestSupport.temporaryDirectory()
        let disk = DataDirectory(path: directory, logger: AppTestSupport.quietLogger())
        try disk.prepare()
        _ = try disk.save(dataset)
        let loaded = disk.load().dataset
        #expect(loaded.snapshot == dataset.snapshot)
        let entry = try require(loaded.snapshot.entries.first { $0.station.key == walkaway })
        #expect(entry.prices.isEmpty)
        #expect(entry.tomorrowOnly.map(\.tomorrow.price) == [PriceTenths(tenths: 2_180), PriceTenths(tenths: 3_160)])

        #expect(loaded.rollingOverTomorrow(at: next.instant(hour: 5, minute: 59, in: WATradingDay.zone)).snapshot == loaded.snapshot)
        let promoted = loaded.rollingOverTomorrow(at: next.instant(hour: 6, in: WATradingDay.zone)).snapshot
        let after = try require(promoted.entries.first { $0.station.key == walkaway })
        #expect(after.price(of: .U91)?.price == PriceTenths(tenths: 2_180))
        #expect(after.price(of: .DL)?.price == PriceTenths(tenths: 3_160))
        #expect(after.tomorrowOnly.isEmpty)
    }

    /// Files written before tomorrow-only prices existed end where the new section would start: they still load.
    @Test func snapshotFilesWithoutTheTomorrowOnlySectionStillLoad() throws {
        let sample = AppTestSupport.sampleDataset.snapshot
        let walkaway = try require(sample.entries.first { $0.station.key.sourceID == "site-992" })
        #expect(!walkaway.tomorrowOnly.isEmpty)
        let without = Snapshot(
            version: sample.version, changedAt: sample.changedAt,
            entries: sample.entries.map { StationEntry(station: $0.station, prices: $0.prices) }, statuses: sample.statuses)
        let old = try SnapshotCodec.encode(without)
        let new = try SnapshotCodec.encode(sample)
        #expect(new.count > old.count && Array(new.prefix(old.count)) == old)
        #expect(try SnapshotCodec.decode(old) == without)
        #expect(try SnapshotCodec.decode(new) == sample)
        // A section that is not one is refused, never half-read.
        #expect(throws: SnapshotCodec.Malformed.self) { try SnapshotCodec.decode(old + Array("XXXX".utf8)) }
    }
}
