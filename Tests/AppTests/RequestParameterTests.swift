import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// Requests mean what they say: favourites, offsets, repeated parameters, lists.
@Suite struct RequestParameterTests: OnSampleApp {
    private func data(_ path: String) throws -> [[String: Any]] {
        let res = try app.test(.GET, path)
        #expect(res.status == .ok, "\(path): \(res.bodyString.prefix(200))")
        return try AppTestSupport.list(res).data
    }

    private func meta(_ path: String) throws -> [String: Any] {
        try require(try AppTestSupport.json(try app.test(.GET, path))["meta"] as? [String: Any])
    }

    private func reason(_ path: String) throws -> String {
        let res = try app.test(.GET, path)
        #expect(res.status == .badRequest, "\(path) answered \(res.status)")
        return try AppTestSupport.json(res)["reason"] as? String ?? ""
    }

    /// Codes and choices take any ASCII case, and nothing else that Unicode case mapping turns into their letters:
    /// `ſ` (long s) upper-cases to S and the Kelvin sign lower-cases to k.
    @Test func codesAndChoicesFoldASCIICaseOnly() throws {
        #expect(try data("/v1/stations?state=nsw&limit=1").count == 1)
        #expect(try data("/v1/stations?fuel=u91&limit=1").count == 1)
        #expect(try data("/v1/stations?fuel=u91,dl&limit=1").count == 1)
        #expect(try reason("/v1/stations?state=n%C5%BFw").contains("Unknown state"))
        #expect(try reason("/v1/averages?state=%C5%BFA").contains("Unknown state"))
        #expect(try reason("/v1/stations?fuel=u91,%C5%BF").contains("Unknown fuel"))
        #expect(try data("/v1/stations/along?polyline=_p~iF~ps%7CU_ulLnnqC&sort=ALONG_KM&limit=1").count <= 1)
        #expect(try reason("/v1/stations/along?polyline=_p~iF~ps%7CU_ulLnnqC&sort=along_%E2%84%AAm").contains("sort must be one of"))
        #expect(try reason("/v1/prices/changes?since=2026-01-01T00:00:00Z&state=n%C5%BFw").contains("Unknown state"))
    }

    @Test func favouritesReturnEveryRequestedStationWithoutALimit() throws {
        let known = AppTestSupport.sampleDataset.snapshot.entries.suffix(80).map(\.id.rawValue)
        let asked = known + [999_999, 888_888]
        let path = "/v1/stations?ids=" + asked.map(String.init).joined(separator: ",")
        let ids = try data(path).compactMap { $0["id"] as? Int }
        #expect(ids == known)
        let meta = try meta(path)
        #expect(meta["missing"] as? [Int] == [999_999, 888_888])
        #expect(meta["total"] as? Int == 80)
        #expect(meta["limit"] as? Int == 82)
    }

    @Test func favouritesNameNoMissingWhenAllAreKnownAndListsWithoutIdsHaveNoMissing() throws {
        #expect(try meta("/v1/stations?ids=1,2")["missing"] as? [Int] == [])
        #expect(try meta("/v1/stations?state=WA")["missing"] == nil)
    }

    @Test func favouritesStillHonourAnExplicitLimit() throws {
        #expect(try data("/v1/stations?ids=1,2,3,4&limit=2").compactMap { $0["id"] as? Int } == [1, 2])
    }

    @Test func moreThanAHundredIdsIsABadRequestNamingIds() throws {
        let reason = try reason("/v1/stations?ids=" + (1...101).map(String.init).joined(separator: ","))
        #expect(reason.hasPrefix("ids"))
    }

    @Test func cheapestHonoursOffset() throws {
        let all = try data("/v1/prices/cheapest?fuel=U91&state=NSW&limit=10").compactMap { ($0["station"] as? [String: Any])?["id"] as? Int }
        let second = try data("/v1/prices/cheapest?fuel=U91&state=NSW&limit=5&offset=5").compactMap { ($0["station"] as? [String: Any])?["id"] as? Int }
        #expect(all.count == 10)
        #expect(second == Array(all[5...]))
        let meta = try meta("/v1/prices/cheapest?fuel=U91&state=NSW&limit=5&offset=5")
        #expect(meta["offset"] as? Int == 5)
        #expect((meta["total"] as? Int ?? 0) > 10)
    }

    @Test func tomorrowHonoursOffset() throws {
        func stations(_ query: String) throws -> [Int] {
            let body = try AppTestSupport.json(try app.test(.GET, "/v1/tomorrow?state=WA&fuel=U91" + query))
            let data = try require(body["data"] as? [String: Any])
            return try require(data["stations"] as? [[String: Any]]).compactMap { $0["station_id"] as? Int }
        }
        let all = try stations("&limit=6")
        #expect(all.count == 6)
        #expect(try stations("&limit=3&offset=3") == Array(all[3...]))
        let meta = try meta("/v1/tomorrow?state=WA&fuel=U91&limit=3&offset=3")
        #expect(meta["offset"] as? Int == 3)
        #expect((meta["total"] as? Int ?? 0) > 6)
    }

    @Test(arguments: [
        ("/v1/stations?state=NSW&state=VIC", "state"), ("/v1/stations?limit=5&limit=6", "limit"),
        ("/v1/stations?sort=name&sort=price", "sort"), ("/v1/prices/cheapest?fuel=U91&state=NSW&offset=1&offset=2", "offset"),
        ("/v1/tomorrow?fuel=U91&fuel=DL", "fuel"), ("/v1/averages?state=WA&state=WA", "state"),
    ])
    func aSingleValuedParameterGivenTwiceIsABadRequestNamingIt(path: String, name: String) throws {
        let reason = try reason(path)
        #expect(reason.hasPrefix("\(name) is given more than once"), "\(reason)")
    }

    /// Generated clients send a list exploded (`ids=1&ids=2`) whatever the spec's `explode: false` says: a list
    /// parameter given several times is the same list as its values joined by commas. Scalars stay strict (above).
    @Test(arguments: [
        ("/v1/stations?ids=1&ids=2&ids=3", "/v1/stations?ids=1,2,3"),
        ("/v1/stations?state=NSW&fuel=LPG&fuel=E85&limit=500", "/v1/stations?state=NSW&fuel=LPG,E85&limit=500"),
        ("/v1/stations?state=NSW&brand=Ampol&brand=shell&limit=500", "/v1/stations?state=NSW&brand=Ampol,shell&limit=500"),
        ("/v1/stations?state=NSW&exclude_brand=Ampol&exclude_brand=BP,Shell", "/v1/stations?state=NSW&exclude_brand=Ampol,BP,Shell"),
        ("/v1/stations?bbox=-34.0&bbox=150.9&bbox=-33.7&bbox=151.3", "/v1/stations?bbox=-34.0,150.9,-33.7,151.3"),
        ("/v1/tomorrow?fuel=U91&ids=3290&ids=3291", "/v1/tomorrow?fuel=U91&ids=3290,3291"),
        ("/v1/prices/changes?ids=1&ids=2&limit=50", "/v1/prices/changes?ids=1,2&limit=50"),
    ])
    func aListParameterGivenSeveralTimesIsOneList(repeated: String, joined: String) throws {
        let exploded = try app.test(.GET, repeated)
        let comma = try app.test(.GET, joined)
        #expect(exploded.status == .ok, "\(repeated): \(exploded.status) \(exploded.bodyString.prefix(200))")
        #expect(exploded.bodyString == comma.bodyString)
    }

    @Test func aListGivenSeveralTimesIsStillCheckedAsOne() throws {
        #expect(try reason("/v1/stations?bbox=-34.0&bbox=150.9&bbox=-33.7").hasPrefix("bbox must be"))
        #expect(try reason("/v1/stations?ids=1&ids=x").contains("'x' is not one"))
        #expect(try reason("/v1/stations?fuel=U91&fuel=").hasPrefix("fuel"))
        let tooMany = (1...101).map { "ids=\($0)" }.joined(separator: "&")
        #expect(try reason("/v1/stations?\(tooMany)").hasPrefix("ids takes at most 100"))
    }

    @Test func fuelTakesAnyOfSeveral() throws {
        let lpg = Set(try data("/v1/stations?state=NSW&fuel=LPG&limit=500").compactMap { $0["id"] as? Int })
        let e85 = Set(try data("/v1/stations?state=NSW&fuel=E85&limit=500").compactMap { $0["id"] as? Int })
        let either = try data("/v1/stations?state=NSW&fuel=LPG,E85&limit=500")
        #expect(!lpg.isEmpty && !e85.isEmpty && !lpg.isSubset(of: e85))
        #expect(Set(either.compactMap { $0["id"] as? Int }) == lpg.union(e85))
        #expect(try meta("/v1/stations?state=NSW&fuel=lpg,E85,LPG")["total"] as? Int == lpg.union(e85).count)
        #expect(try reason("/v1/stations?fuel=U91,E10&sort=price").contains("one fuel"))
        #expect(try reason("/v1/stations?fuel=U91,").hasPrefix("fuel"))
        #expect(try reason("/v1/stations?fuel=U91,XYZ").contains("XYZ"))
    }

    @Test func brandTakesSeveralAndExcludeBrandLeavesThemOut() throws {
        let brands = Set(try data("/v1/stations?state=NSW&brand=ampol,Shell&limit=500").compactMap { $0["brand"] as? String })
        #expect(brands == ["Ampol", "Shell"])
        let all = try meta("/v1/stations?state=NSW")["total"] as? Int ?? 0
        let ampol = try meta("/v1/stations?state=NSW&brand=Ampol")["total"] as? Int ?? 0
        let bp = try meta("/v1/stations?state=NSW&brand=BP")["total"] as? Int ?? 0
        let rest = try meta("/v1/stations?state=NSW&exclude_brand=AMPOL,bp")["total"] as? Int ?? 0
        #expect(ampol > 0 && bp > 0)
        #expect(rest == all - ampol - bp)
        let listed = try data("/v1/stations?state=NSW&exclude_brand=Ampol&limit=500").compactMap { $0["brand"] as? String }
        #expect(!listed.contains("Ampol"))
        #expect(try meta("/v1/stations?state=NSW&brand=NoSuchBrand")["total"] as? Int == 0)
        #expect(try reason("/v1/stations?exclude_brand=BP,").hasPrefix("exclude_brand"))
    }
}
