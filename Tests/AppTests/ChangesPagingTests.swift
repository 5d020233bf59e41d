import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// `/v1/prices/changes` answers at most `limit` items, even when thousands of prices share one instant (the
/// sample NSW list was merged in one step), and following `next_cursor` visits every change exactly once.
@Suite struct ChangesPagingTests {

    func page(_ query: String) throws -> (items: [[String: Any]], meta: [String: Any]) {
        let response = try AppTestSupport.sharedSampleApp().test(.GET, "/v1/prices/changes?\(query)")
        #expect(response.status == .ok, "\(query): \(response.bodyString.prefix(200))")
        let list = try AppTestSupport.list(response)
        return (list.data, list.meta)
    }

    @Test func everyPageIsBoundedByItsLimitEvenWithinOneInstant() throws {
        let first = try page("limit=1")
        #expect(first.items.count == 1)
        #expect(first.meta["has_more"] as? Bool == true)
        let big = try page("limit=50")
        // A station item carries its prices, so the page leaves out their price items: fewer than 50, never more.
        #expect(big.items.count <= 50 && big.meta["has_more"] as? Bool == true)
        #expect(big.items.count == big.meta["total"] as? Int)
        // The sample NSW list shares one merge instant: more than 50 prices have the first page's changed_at.
        let instants = Set(big.items.compactMap { $0["changed_at"] as? String })
        #expect(instants.count == 1, "the fixture should put many changes on one instant: \(instants)")
    }

    @Test func aLimitOver2000IsServedAs2000AndTheCursorCarriesOn() throws {
        let first = try page("limit=5000")
        #expect(first.meta["limit"] as? Int == 2_000)
        // Station items carry their prices and leave their price items out: the page is the 2,000 one exactly.
        #expect(itemKeys(first) == itemKeys(try page("limit=2000")) && first.items.count <= 2_000)
        #expect(first.items.count > (try page("limit=1000")).items.count)
        #expect(first.meta["has_more"] as? Bool == true)
        let cursor = try require(first.meta["next_cursor"] as? String)
        let second = try page("cursor=\(cursor)&limit=5000")
        #expect(!second.items.isEmpty)
        #expect(itemKeys(second).isDisjoint(with: itemKeys(first)))
        #expect(try AppTestSupport.sharedSampleApp().test(.GET, "/v1/prices/changes?limit=5001").status == .badRequest)
    }

    private func itemKeys(_ page: (items: [[String: Any]], meta: [String: Any])) -> Set<String> {
        Set(page.items.map { "\($0["type"] ?? "")/\($0["station_id"] ?? "")/\($0["fuel"] ?? "")" })
    }

    @Test func followingTheCursorVisitsEveryChangeOnceAndEnds() throws {
        let everything = try page("limit=5000&state=WA")
        #expect(everything.meta["has_more"] as? Bool == false)
        var seen: [String] = []
        var query = "limit=7&state=WA"
        for _ in 0..<1_000 {
            let next = try page(query)
            #expect(next.items.count <= 7)
            seen += next.items.map { "\($0["station_id"] ?? "")/\($0["fuel"] ?? "")" }
            guard next.meta["has_more"] as? Bool == true else { break }
            let cursor = try require(next.meta["next_cursor"] as? String)
            query = "cursor=\(cursor)&limit=7&state=WA"
        }
        let expected = everything.items.map { "\($0["station_id"] ?? "")/\($0["fuel"] ?? "")" }
        // Small pages may hold a price item whose station item fell on another page; the one big page leaves every
        // such item out. Either way each item comes once, in feed order, and every station comes.
        #expect(seen.filter { $0.hasSuffix("/") } == expected.filter { $0.hasSuffix("/") })
        #expect(Set(expected).isSubset(of: Set(seen)))
        #expect(Set(seen).count == seen.count)
    }

    /// Favourites: `ids=` keeps only those stations' items, on the same cursors as the whole feed.
    @Test func idsKeepOnlyThoseStationsOnTheSameCursors() throws {
        let wanted: Set<Int> = [3290, 3291, 3300]
        let all = try page("limit=5000&state=WA").items.filter { wanted.contains($0["station_id"] as? Int ?? 0) }
        var seen: [String] = []
        var query = "limit=3&ids=3290,3291,3300"
        for _ in 0..<100 {
            let next = try page(query)
            #expect(next.items.allSatisfy { wanted.contains($0["station_id"] as? Int ?? 0) })
            seen += next.items.map { "\($0["station_id"] ?? "")/\($0["fuel"] ?? "")/\($0["type"] ?? "")" }
            guard next.meta["has_more"] as? Bool == true, let cursor = next.meta["next_cursor"] as? String else { break }
            query = "limit=3&ids=3290,3291,3300&cursor=\(cursor)"
        }
        #expect(!all.isEmpty)
        #expect(seen == all.map { "\($0["station_id"] ?? "")/\($0["fuel"] ?? "")/\($0["type"] ?? "")" })
        let reason = try AppTestSupport.json(try AppTestSupport.sharedSampleApp().test(.GET, "/v1/prices/changes?ids=1,x"))["reason"] as? String
        #expect(reason?.hasPrefix("ids must be a comma-separated list of station ids") == true)
    }

    /// A `since` just past the feed's end (a phone's clock a few minutes ahead) hands back the feed's end: a
    /// cursor at the phone's instant would skip what is merged before it.
    @Test func aSinceAheadOfTheFeedHandsBackItsEndNotTheInstantAsked() throws {
        let end = try require(ChangeCursor(token: try require(page("limit=1").meta["sync_token"] as? String)))
        for ahead in [1.0, 600] {
            let since = ISOTimestamp.string(Date(timeIntervalSince1970: (end.changedAt.timeIntervalSince1970 + ahead).rounded(.up) + 1))
            let answer = try page("since=\(since)")
            #expect(answer.items.isEmpty && answer.meta["next_cursor"] as? String == end.token, "since=\(since): \(answer.meta)")
        }
    }

    @Test func anEmptyPageKeepsItsPlaceAndBadCursorsAreRefused() throws {
        let empty = try page("since=2030-01-01T00:00:00Z")
        #expect(empty.items.isEmpty)
        let cursor = try require(empty.meta["next_cursor"] as? String)
        #expect(try page("cursor=\(cursor)").items.isEmpty)
        // With a cursor, since is ignored.
        #expect(try page("since=1970-01-01T00:00:00Z&cursor=\(cursor)").items.isEmpty)
        // A cursor from the future (here +inf) would never advance: refused, pointing to sync_token.
        let future = try AppTestSupport.sharedSampleApp().test(.GET, "/v1/prices/changes?cursor=c1.7ff8000000000000.1.U91")
        #expect(future.status == .badRequest && future.bodyString.contains("sync_token"))
        for bad in ["cursor=xyz", "cursor=c1.zz.1.U91", "cursor=c1.1.1.XX", "since=2026-01-01T00:00:00Z&cursor=c1.1.0.U91", "since=yesterday"] {
            let response = try AppTestSupport.sharedSampleApp().test(.GET, "/v1/prices/changes?\(bad)")
            #expect(response.status == .badRequest, "\(bad)")
        }
        // The refusal names the parameter the client sent.
        let unknown = try AppTestSupport.sharedSampleApp().test(.GET, "/v1/prices/changes?cursor=xyz")
        #expect(unknown.bodyString.contains("cursor= is not one this server issued"), "\(unknown.bodyString)")
    }
}
