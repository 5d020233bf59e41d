import Foundation
import Fuel
import HTTP
import Synchronization
import Testing
@testable import API
@testable import App
import TestSupport

/// A client that applies only `/v1/prices/changes` pages holds what a full fetch of `/v1/stations` shows, after every
/// step of a sequence of provider updates merged by the real store (price changes, dropped fuels, delisted stations,
/// renames and moves, WA's 06:00 rollover, failed polls, stale feeds), whether it started empty or from a full
/// fetch's `meta.sync_token`, with pages as small as one item.
@Suite struct SyncConvergenceTests {
    @Test func aScriptedSequenceConverges() throws {
        var world = try SyncWorld(seed: 1)
        try world.step("first feeds") { $0.publishAll() }
        try world.step("price changes") { $0.changePrices(count: 6) }
        try world.step("a fuel dropped") { $0.dropFuel() }
        try world.step("a station renamed and moved") { $0.renameAndMove() }
        try world.step("a failed poll") { $0.failPoll() }
        for round in 1...FeedPolicy.absencesBeforeRemoval {
            // Removal needs the absence over time too (`FeedPolicy.minimumAbsence`), not only over feeds.
            if round > 1 { world.advance(FeedPolicy.minimumAbsence / Double(FeedPolicy.absencesBeforeRemoval - 1)) }
            try world.step("a delisted station, absent feed \(round)") { $0.delist(round == 1) }
        }
        try world.step("tomorrow's prices published") { $0.publishTomorrow() }
        try world.step("the 06:00 rollover") { $0.rollOver() }
        try world.step("a stale WA feed") { $0.staleFeed() }
        try world.step("a station comes back") { $0.relist() }
        try world.step("a typo price (implausible)") { $0.typoPrice() }
        try world.step("prices age past 30 days (stale)") { $0.ageOut() }
        try world.step("fresh prices again") { $0.changePrices(count: 6) }
        #expect(world.flagsSeen.contains("implausible"), "a typo price should reach clients flagged")
        #expect(world.flagsSeen.contains("stale"), "aged prices should reach clients flagged")
        #expect(world.removalsSeen.contains("station"), "a delisted station should reach clients as a tombstone")
        #expect(world.removalsSeen.contains("price"), "a dropped fuel should reach clients as a tombstone")
        #expect(world.rolledOver > 0, "the rollover should promote prices")
    }

    @Test(arguments: [2, 3, 4, 5])
    func randomSequencesConverge(seed: UInt64) throws {
        var world = try SyncWorld(seed: seed)
        try world.step("first feeds") { $0.publishAll() }
        for index in 0..<30 {
            let action = world.random.next() % 11
            try world.step("step \(index) action \(action) seed \(seed)") { world in
                switch action {
                case 0: world.changePrices(count: Int(world.random.next() % 5) + 1)
                case 1: world.dropFuel()
                case 2: world.renameAndMove()
                case 3: world.failPoll()
                case 4: world.delist(world.random.next() % 2 == 0)
                case 5: world.publishTomorrow()
                case 6: world.rollOver()
                case 7: world.staleFeed()
                case 8: world.typoPrice()
                case 9: world.ageOut()
                default: world.relist()
                }
            }
        }
    }

    /// A full fetch paged with `after=meta.next_after` while the data changes between every pair of
    /// pages (removals included), then a sync from the first page's `sync_token`, holds what a fresh full fetch shows.
    @Test(arguments: [11, 12, 13])
    func aKeysetFullFetchWithChangesBetweenEveryPairOfPagesConverges(seed: UInt64) throws {
        var world = try SyncWorld(seed: seed)
        try world.step("first feeds") { $0.publishAll() }
        var client = SyncWorld.Client()
        var after: Int?
        var pages = 0
        repeat {
            let json = try world.get("/v1/stations?limit=5" + (after.map { "&after=\($0)" } ?? ""))
            let meta = try require(json["meta"] as? [String: Any])
            if client.cursor == nil { client.cursor = try require(meta["sync_token"] as? String) }
            for station in try require(json["data"] as? [[String: Any]]) {
                let id = try require(station["id"] as? Int)
                client.state.stations[id] = SyncedState.station(station)
                client.state.prices[id] = SyncedState.prices(station)
            }
            after = meta["next_after"] as? Int
            pages += 1
            world.advance(120)
            switch (pages + Int(seed)) % 5 {
            case 0: world.delist(true)
            case 1: world.changePrices(count: 3)
            case 2: world.renameAndMove()
            case 3: world.typoPrice()
            default: world.dropFuel()
            }
        } while after != nil
        #expect(pages >= 9, "\(pages) pages")
        // A station delisted during the fetch is removed once it has been missing from 3 feeds and for 24 hours
        // (`FeedPolicy.minimumAbsence`): a day later, its tombstone must reach the client through the first token.
        world.advance(FeedPolicy.minimumAbsence + 60)
        for _ in 0..<FeedPolicy.absencesBeforeRemoval {
            for provider in world.stations.keys.sorted(by: { $0.rawValue < $1.rawValue }) { world.publish(provider) }
        }
        try world.sync(&client)
        let truth = try world.fullFetch()
        #expect(client.state == truth.state, "after a keyset fetch with changes between pages:\n\(client.state)\n---\n\(truth.state)")
        #expect(world.removalsSeen.contains("station"), "a station delisted during the fetch should reach the client as a tombstone")
    }

    @Test func keysetPagingRefusesOtherOrdersAndOffsets() throws {
        let world = try SyncWorld(seed: 14)
        for query in ["after=3&sort=name", "after=3&near=-33.87,151.21", "after=3&ids=1,2", "after=3&offset=2", "after=0", "after=x"] {
            let response = try world.app.test(.GET, "/v1/stations?\(query)")
            #expect(response.status == .badRequest, "\(query): \(response.status)")
            #expect((try AppTestSupport.json(response)["reason"] as? String)?.contains("after") == true, "\(query)")
        }
    }

    /// A cursor nobody could have been given (the year 2137, +inf) is a 400 pointing to `sync_token`,
    /// not an empty page that hands itself back forever.
    @Test func aCursorFromTheFutureIs400TellingToStartFromSyncToken() throws {
        var world = try SyncWorld(seed: 15)
        try world.step("first feeds") { $0.publishAll() }
        for token in ["c2.7ff0000000000000.1.station", "c2.41f0000000000000.5.U91"] {
            let response = try world.app.test(.GET, "/v1/prices/changes?cursor=\(token)")
            #expect(response.status == .badRequest, "\(token): \(response.status)")
            #expect((try AppTestSupport.json(response)["reason"] as? String)?.contains("sync_token") == true)
        }
        // The end of the feed, and a cursor a few minutes ahead (another instance's newer poll), still page.
        let end = try world.fullFetch().token
        #expect(try world.app.test(.GET, "/v1/prices/changes?cursor=\(end)").status == .ok)
        let ahead = ChangeCursor(changedAt: world.now + 300, station: StationID(1), fuel: nil).token
        #expect(try world.app.test(.GET, "/v1/prices/changes?cursor=\(ahead)").status == .ok)
    }

    @Test func aCursorOlderThanTheLogIs410WithAReason() throws {
        var world = try SyncWorld(seed: 9)
        try world.step("first feeds") { $0.publishAll() }
        let token = try world.fullFetch().token
        try world.step("a fuel dropped") { $0.dropFuel() }
        let kept = try world.fullFetch().token
        #expect(try world.app.test(.GET, "/v1/prices/changes?cursor=\(token)").status == .ok, "within retention")
        // A week later the tombstone is dropped: a cursor from before it can no longer catch up.
        world.advance(ChangeLog.retention + 3_600)
        world.changePrices(count: 2)
        let response = try world.app.test(.GET, "/v1/prices/changes?cursor=\(token)")
        #expect(response.status.code == 410)
        let json = try AppTestSupport.json(response)
        #expect(json["error"] as? Bool == true)
        #expect((json["reason"] as? String)?.contains("sync_token") == true, "\(json)")
        #expect(try world.app.test(.GET, "/v1/prices/changes?since=2000-01-01T00:00:00Z").status.code == 410)
        // A cursor issued after the dropped tombstone needs nothing that is gone; a fresh full fetch's token works.
        #expect(try world.app.test(.GET, "/v1/prices/changes?cursor=\(kept)").status == .ok)
        #expect(try world.app.test(.GET, "/v1/prices/changes?cursor=\(try world.fullFetch().token)").status == .ok)
    }
}

/// What a client keeps: stations and their prices, as `/v1/stations` shows them (without per-request flags).
struct SyncedState: Equatable, CustomStringConvertible {
    var stations: [Int: [String: String]] = [:]
    var prices: [Int: [String: String]] = [:]

    var description: String {
        stations.keys.sorted().map { "\($0): \(stations[$0]!) \(prices[$0] ?? [:])" }.joined(separator: "\n")
    }

    static func station(_ json: [String: Any]) -> [String: String] {
        var fields: [String: String] = [:]
        for key in ["name", "brand", "address", "suburb", "state", "postcode"] { fields[key] = "\(json[key] ?? "nil")" }
        let location = json["location"] as? [String: Any] ?? [:]
        fields["location"] = "\(location["latitude"] ?? ""),\(location["longitude"] ?? "")"
        return fields
    }

    static func prices(_ json: [String: Any]) -> [String: String] {
        var out: [String: String] = [:]
        for price in json["prices"] as? [[String: Any]] ?? [] {
            let tomorrow = (price["tomorrow"] as? [String: Any]).map { "\($0["price"] ?? "")@\($0["day"] ?? "")" } ?? "-"
            out["\(price["fuel"]!)"] = "\(price["price"]!)|\(price["updated_at"]!)|\(tomorrow)|\(flags(price))"
        }
        return out
    }

    /// The flags a price carries in a list and in a change item alike.
    static func flags(_ price: [String: Any]) -> String {
        ["stale", "implausible"].filter { price[$0] as? Bool == true }.joined(separator: ",")
    }

    mutating func apply(_ item: [String: Any]) throws {
        let id = try require(item["station_id"] as? Int)
        let removed = item["removed"] as? Bool == true
        switch (item["type"] as? String, removed) {
        case ("station", true):
            stations[id] = nil
            prices[id] = nil
        case ("station", false):
            let station = try require(item["station"] as? [String: Any])
            stations[id] = Self.station(station)
            prices[id] = Self.prices(station)
        case ("price", true):
            prices[id]?[try require(item["fuel"] as? String)] = nil
        case ("price", false):
            let fuel = try require(item["fuel"] as? String)
            let tomorrow = prices[id]?[fuel].map { String($0.split(separator: "|", omittingEmptySubsequences: false)[2]) } ?? "-"
            prices[id, default: [:]][fuel] = "\(item["price"]!)|\(item["updated_at"]!)|\(tomorrow)|\(Self.flags(item))"
        default:
            throw TestFailure("unknown item \(item)")
        }
    }
}

/// Two WA-like and NSW-like providers with small station pools, merged through the real store behind the real app.
struct SyncWorld {
    struct Client {
        var state = SyncedState()
        var cursor: String?
    }

    let app: Application
    let store: PettyStore
    private let clock: TestClock
    var random: SplitMix64
    /// By provider: station records and their prices, as the next feed will list them.
    var stations: [ProviderID: [StationRecord]] = [:]
    var prices: [ProviderID: [StationKey: [FuelType: PriceRecord]]] = [:]
    var tomorrow: [StationKey: [FuelType: PriceTenths]] = [:]
    var delisted: [ProviderID: [StationRecord]] = [:]
    var clients: [Client] = [Client(), Client()]
    var removalsSeen: Set<String> = []
    var flagsSeen: Set<String> = []
    var rolledOver = 0
    private var startedFromFullFetch = false

    init(seed: UInt64) throws {
        random = SplitMix64(seed: seed)
        // 08:00 in Perth: WA's trading day is under way.
        let clock = TestClock(Date(timeIntervalSince1970: 1_772_409_600))
        self.clock = clock
        let (app, store) = try buildApplication(
            AppTestSupport.config(), logger: AppTestSupport.quietLogger(), clock: { clock.now }, dataset: Dataset())
        self.app = app
        self.store = store
        for provider in [ProviderID.wa, .nsw] {
            let state: AustralianState = provider == .wa ? .WA : .NSW
            let base = provider == .wa ? Coordinate(latitude: -31.95, longitude: 115.86) : Coordinate(latitude: -33.87, longitude: 151.21)
            stations[provider] = (1...24).map { number in
                StationRecord(
                    key: StationKey(provider: provider, sourceID: "s\(number)"), name: "Servo \(number)", brand: number % 3 == 0 ? "Ampol" : "BP",
                    address: "\(number) Main St", suburb: "Town", state: state, postcode: state == .WA ? "6000" : "2000",
                    location: Coordinate(latitude: base.latitude + Double(number) * 0.01, longitude: base.longitude))
            }
            for record in stations[provider]! {
                for fuel in [FuelType.U91, .DL, .P98] {
                    prices[provider, default: [:]][record.key, default: [:]][fuel] = PriceRecord(
                        station: record.key, fuel: fuel, price: PriceTenths(tenths: 1_800 + Int(random.next() % 200)), updatedAt: self.now - 600)
                }
            }
        }
    }

    var now: Date { clock.now }

    func advance(_ seconds: TimeInterval) { clock.set(clock.now + seconds) }

    // MARK: the provider side

    mutating func publish(_ provider: ProviderID) {
        let listed = stations[provider]!
        let records = listed.flatMap { prices[provider]![$0.key]!.values }
        let tomorrowRecords: [TomorrowPriceRecord] = provider == .wa ? listed.flatMap { record in
            (tomorrow[record.key] ?? [:]).map { fuel, price in
                TomorrowPriceRecord(station: record.key, fuel: fuel, price: price, day: WATradingDay.nextTradingDay(after: now).description)
            }
        } : []
        store.apply(ProviderUpdate(provider: provider, stations: listed, prices: records, tomorrow: tomorrowRecords, asOf: now), source: .live, at: now)
    }

    mutating func publishAll() {
        publish(.wa)
        publish(.nsw)
    }

    mutating func pickProvider() -> ProviderID { random.next() % 2 == 0 ? .wa : .nsw }

    mutating func changePrices(count: Int) {
        let provider = pickProvider()
        for _ in 0..<count {
            let record = stations[provider]![Int(random.next() % UInt64(stations[provider]!.count))]
            guard let fuel = prices[provider]![record.key]!.keys.sorted(by: { $0.rawValue < $1.rawValue }).first else { continue }
            prices[provider]![record.key]![fuel] = PriceRecord(
                station: record.key, fuel: fuel, price: PriceTenths(tenths: 1_700 + Int(random.next() % 300)), updatedAt: now - 60)
        }
        publish(provider)
    }

    /// One price keyed in as 80.0: far below its state's median, so flagged implausible.
    mutating func typoPrice() {
        let provider = pickProvider()
        let record = stations[provider]![Int(random.next() % UInt64(stations[provider]!.count))]
        guard let fuel = prices[provider]![record.key]!.keys.sorted(by: { $0.rawValue < $1.rawValue }).first else { return }
        prices[provider]![record.key]![fuel] = PriceRecord(station: record.key, fuel: fuel, price: PriceTenths(tenths: 800), updatedAt: now - 60)
        publish(provider)
    }

    /// A month passes and one provider's feed comes again unchanged: its prices are now set more than 30 days before
    /// its as-of (stale) though none of them changed.
    mutating func ageOut() {
        advance(31 * 86_400)
        publish(pickProvider())
    }

    mutating func dropFuel() {
        let provider = pickProvider()
        let record = stations[provider]![Int(random.next() % UInt64(stations[provider]!.count))]
        if prices[provider]![record.key]!.count > 1, let fuel = prices[provider]![record.key]!.keys.min(by: { $0.rawValue < $1.rawValue }) {
            prices[provider]![record.key]![fuel] = nil
            tomorrow[record.key]?[fuel] = nil
        }
        publish(provider)
    }

    mutating func renameAndMove() {
        let provider = pickProvider()
        let index = Int(random.next() % UInt64(stations[provider]!.count))
        stations[provider]![index].name += " Express"
        stations[provider]![index].brand = stations[provider]![index].brand == "BP" ? "Shell" : "BP"
        stations[provider]![index].location.latitude += 0.002
        publish(provider)
    }

    /// A poll that fails is kept off the data (the poller's status store records it); what reaches the store is a
    /// feed the merge refuses: an empty full list.
    mutating func failPoll() {
        let report = store.apply(ProviderUpdate(provider: pickProvider(), stations: [], prices: [], asOf: now), source: .live, at: now)
        precondition(!report.isApplied, "an empty full feed must be refused")
    }

    /// Leaves a station out of the feeds (a new one when `fresh` or none is out yet); after
    /// `FeedPolicy.absencesBeforeRemoval` feeds without it, it is removed.
    mutating func delist(_ fresh: Bool) {
        let provider = pickProvider()
        if fresh || (delisted[provider] ?? []).isEmpty, stations[provider]!.count > 16 {
            let index = Int(random.next() % UInt64(stations[provider]!.count))
            delisted[provider, default: []].append(stations[provider]!.remove(at: index))
        }
        publish(provider)
    }

    mutating func relist() {
        let provider = pickProvider()
        if var out = delisted[provider], !out.isEmpty {
            stations[provider]!.append(out.removeFirst())
            delisted[provider] = out
        }
        publish(provider)
    }

    mutating func publishTomorrow() {
        for record in stations[.wa]! where random.next() % 2 == 0 {
            for fuel in prices[.wa]![record.key]!.keys {
                tomorrow[record.key, default: [:]][fuel] = PriceTenths(tenths: 1_650 + Int(random.next() % 300))
            }
        }
        publish(.wa)
    }

    /// Moves the clock to just after the next 06:00 in Perth and rolls tomorrow's prices over, as the writer does.
    mutating func rollOver() {
        let start = WATradingDay.start(of: WATradingDay.nextTradingDay(after: now))
        clock.set(start + 30)
        let before = store.current.snapshot
        store.rollOver(at: now)
        let after = store.current.snapshot
        for entry in after.entries where entry.station.state == .WA {
            for price in entry.prices where before[entry.id]?.price(of: price.fuel)?.price != price.price { rolledOver += 1 }
        }
        // The feed now lists the promoted prices as today's.
        for (key, fuels) in tomorrow {
            for (fuel, price) in fuels where prices[.wa]![key]?[fuel] != nil {
                prices[.wa]![key]![fuel] = PriceRecord(station: key, fuel: fuel, price: price, updatedAt: start)
            }
        }
        tomorrow = [:]
    }

    /// A WA feed dated before the trading day in force: refused, nothing changes.
    mutating func staleFeed() {
        let listed = stations[.wa]!
        let yesterday = WATradingDay.tradingDay(containing: now - 86_400)
        let records = listed.flatMap { prices[.wa]![$0.key]!.values }.map { record in
            var record = record
            record.price = PriceTenths(tenths: record.price.tenths + 100)
            return record
        }
        store.apply(ProviderUpdate(provider: .wa, stations: listed, prices: records, asOf: now, tradingDay: yesterday), source: .live, at: now)
    }

    // MARK: the client side

    func get(_ path: String) throws -> [String: Any] {
        let response = try app.test(.GET, path)
        guard response.status == .ok else { throw TestFailure("\(path): \(response.status.code) \(response.bodyString.prefix(300))") }
        return try AppTestSupport.json(response)
    }

    /// `/v1/stations` page by page, and the `sync_token` of its first page.
    func fullFetch() throws -> (state: SyncedState, token: String) {
        var state = SyncedState()
        var token: String?
        var offset = 0
        while true {
            let json = try get("/v1/stations?limit=10&offset=\(offset)&sort=name")
            let meta = try require(json["meta"] as? [String: Any])
            let pageToken = try require(meta["sync_token"] as? String, "list meta has no sync_token")
            if let token, token != pageToken { throw TestFailure("sync_token changed between pages of one snapshot") }
            token = pageToken
            let data = try require(json["data"] as? [[String: Any]])
            for station in data {
                let id = try require(station["id"] as? Int)
                state.stations[id] = SyncedState.station(station)
                state.prices[id] = SyncedState.prices(station)
            }
            offset += data.count
            if data.isEmpty || offset >= (meta["total"] as? Int ?? 0) { break }
        }
        return (state, try require(token))
    }

    mutating func sync(_ client: inout Client) throws {
        for _ in 0..<10_000 {
            let limit = Int(random.next() % 7) + 1
            let query = client.cursor.map { "cursor=\($0)&limit=\(limit)" } ?? "limit=\(limit)"
            let json = try get("/v1/prices/changes?\(query)")
            let items = try require(json["data"] as? [[String: Any]])
            let meta = try require(json["meta"] as? [String: Any])
            #expect(items.count <= limit)
            let replaced = Set(items.compactMap { $0["type"] as? String == "station" ? $0["station_id"] as? Int : nil })
            for item in items {
                if item["type"] as? String == "price", item["removed"] as? Bool != true, let id = item["station_id"] as? Int {
                    #expect(!replaced.contains(id), "a page that replaces station \(id) repeats its prices: \(item)")
                }
                try client.state.apply(item)
                if item["removed"] as? Bool == true { removalsSeen.insert(item["type"] as? String ?? "") }
                for flag in ["stale", "implausible"] where item[flag] as? Bool == true { flagsSeen.insert(flag) }
                for price in (item["station"] as? [String: Any])?["prices"] as? [[String: Any]] ?? [] {
                    for flag in ["stale", "implausible"] where price[flag] as? Bool == true { flagsSeen.insert(flag) }
                }
            }
            client.cursor = try require(meta["next_cursor"] as? String)
            if meta["has_more"] as? Bool != true { return }
        }
        throw TestFailure("sync did not end")
    }

    /// Runs one step, then checks that every client, synced by changes alone, equals a full fetch.
    mutating func step(_ name: String, _ action: (inout SyncWorld) -> Void) throws {
        advance(Double(random.next() % 3_600) + 60)
        action(&self)
        let truth = try fullFetch()
        if !startedFromFullFetch {
            // The second client bootstraps from a full fetch and its sync_token, the first from nothing.
            clients[1] = Client(state: truth.state, cursor: truth.token)
            startedFromFullFetch = true
        }
        for index in clients.indices {
            var client = clients[index]
            try sync(&client)
            clients[index] = client
            #expect(client.state == truth.state, "after \(name), client \(index) differs from a full fetch:\n\(client.state)\n---\n\(truth.state)")
        }
        // A client at the end stays there: the next page is empty and hands back the same cursor.
        let end = try get("/v1/prices/changes?cursor=\(clients[0].cursor!)&limit=1")
        #expect((end["data"] as? [Any])?.isEmpty == true, "after \(name)")
    }
}

/// The instant the app and the merges see, moved by the test.
final class TestClock: Sendable {
    private let instant: Mutex<Date>
    init(_ start: Date) { instant = Mutex(start) }
    var now: Date { instant.withLock { $0 } }
    func set(_ date: Date) { instant.withLock { $0 = date } }
}
