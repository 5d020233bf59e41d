import Testing
@testable import HTTP

@Suite struct QueryDecodingTests {
    enum Sort: String, Decodable { case price, name }

    struct Filters: Decodable {
        var state: String
        var radiusKm: Double?
        var limit: Int?
        var open: Bool?
        var ids: [Int]?
        var sort: Sort?
    }

    @Test func typedValuesDecodeWithSnakeCaseNamesAndLists() throws {
        let filters = try URLQuery("state=NSW&radius_km=2.5&limit=10&open=true&ids=1,2,3&sort=price").decode(Filters.self)
        #expect(filters.state == "NSW")
        #expect(filters.radiusKm == 2.5)
        #expect(filters.limit == 10)
        #expect(filters.open == true)
        #expect(filters.ids == [1, 2, 3])
        #expect(filters.sort == .price)
        #expect(try URLQuery("state=WA&ids=4&ids=5").decode(Filters.self).ids == [4, 5])
    }

    @Test func missingOptionalsAreNil() throws {
        let filters = try URLQuery("state=VIC").decode(Filters.self)
        #expect(filters.radiusKm == nil && filters.limit == nil && filters.ids == nil && filters.sort == nil)
    }

    @Test(arguments: [
        ("limit=10", "'state' is required"), ("state=NSW&limit=ten", "'limit' must be a valid whole number"),
        ("state=NSW&radius_km=far", "'radius_km' must be a valid number"), ("state=NSW&ids=1,x", "'ids' must be a list"),
        ("state=NSW&sort=height", "'sort' has an invalid value"),
    ])
    func badValuesAre400sNamingTheParameter(raw: String, mentions: String) {
        #expect {
            try URLQuery(raw).decode(Filters.self)
        } throws: { error in
            guard let abort = error as? Abort else { return false }
            return abort.status == .badRequest && abort.reason.contains(mentions)
        }
    }

    @Test func handlersDecodeTheirQuery() throws {
        let app = makeTestApp { app in
            app.get("search") { req -> String in
                let filters = try req.query(as: Filters.self)
                return "\(filters.state) \(filters.limit ?? 0)"
            }
        }
        #expect(try app.test(.GET, "/search?state=QLD&limit=3").bodyString == "QLD 3")
        #expect(try app.test(.GET, "/search?limit=3").status == .badRequest)
    }
}
