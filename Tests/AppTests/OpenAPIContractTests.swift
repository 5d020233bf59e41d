import Foundation
import Fuel
import HTTP
import Testing

@testable import API
@testable import App

/// Keeps `Public/openapi.json` and the server in step: every route is documented, every documented
/// operation answers (in memory, on the bundled sample data) with the documented statuses, media types,
/// headers and body shapes, and every documented parameter constraint is what the server enforces.
@Suite struct OpenAPIContractTests {
    /// Documented paths that may be missing from this checkout because another branch adds them.
    /// Only "documented but not registered" is tolerated, and only while no route has the path at all.
    static let pendingPaths: Set<String> = ["/stations/{id}"]

    /// Requests beyond the all-examples one, for branches the examples do not reach (all must answer 200).
    static let variants = [
        "/v1/stations",
        "/v1/stations?state=vic&limit=3",  // VIC: data_delay_hours; lower-case state accepted
        "/v1/stations?near=-33.8688,151.2093&sort=name&limit=5",  // distance_km without sort=distance
        "/v1/stations?bbox=-34.0,150.9,-33.7,151.3&fuel=e10&sort=PRICE&limit=5",
        "/v1/stations?brand=no-such-brand",  // empty page
        "/v1/stations?ids=1276,3300,3370",  // empty prices, tomorrow prices, VIC
        "/v1/stations?offset=1000000",
        "/v1/stations?after=3000&limit=5",  // keyset paging: next_after
        "/v1/stations?q=bond%20jun&fuel=U91&sort=price&limit=5",  // search, ranked then by price
        "/v1/stations?postcode=2026&compact=true",
        "/v1/stations?state=NSW&after=999999",  // past the last id: empty, next_after null
        "/v1/stations?ids=1,999999",  // meta.missing
        "/v1/stations?state=WA&fuel=U91&compact=true&limit=3",  // pins with tomorrow
        "/v1/stations?state=NSW&fuel=U91,E10&compact=true&limit=3",  // pins naming their fuel
        "/v1/stations?bbox=-34.0,150.9,-33.7,151.3&fuel=U91&cluster=true",
        "/v1/stations?state=VIC&cluster=true&zoom=7",  // no fuel: null min_price
        "/v1/prices/cheapest?fuel=U91&state=NSW&limit=2&offset=3",
        "/v1/stations?near=-33.8688,151.2093&fuel=U91&sort=fill_cost&litres=60&l_per_100km=12&limit=5",  // fill_cost, saving, meta.fill
        "/v1/prices/cheapest?fuel=U91&near=-33.8688,151.2093&sort=fill_cost&limit=3",
        "/v1/stations/along?polyline=vnkmE%7Bksx%5BnlFsqO~tCo%7BKgr@ceJ&detour_km=1&limit=5",  // along_km order, no fuel
        "/v1/stations/along?polyline=vnkmE%7Bksx%5BnlFsqO~tCo%7BKgr@ceJ&fuel=LNG",  // nobody sells it: empty
        "/v1/tomorrow?fuel=U91&limit=2&offset=2",
        "/v1/stations/1276",  // no prices
        "/v1/stations/3370",  // VIC
        "/v1/stations/2593",  // NSW LPG 89.9 from 2023: stale
        "/v1/stations/4896",  // VIC 350.0 placeholders: implausible
        "/v1/averages?state=WA&fuel=U91",  // state row, then metro and regional rows
        "/v1/prices/cheapest?fuel=DL&state=VIC",
        "/v1/prices/cheapest?fuel=u91&near=-31.9523,115.8613&radius_km=50",
        "/v1/prices/cheapest?fuel=LPG&state=QLD",  // no QLD prices in the sample
        "/v1/prices/changes?since=2030-01-01T00:00:00Z",  // empty: next_cursor is the feed's end, never a cursor from the future
        "/v1/prices/changes?since=2026-01-14",
        "/v1/prices/changes?since=2026-01-14T10:00:00.5%2B10:00&limit=1",
        "/v1/averages",
        "/v1/averages?state=QLD",  // no data: source none, no as_of
        "/v1/trends?state=QLD&fuel=U91",  // no through, no cycle
        "/v1/trends?state=nsw&fuel=dl&days=1",
        "/v1/tomorrow",
        "/v1/tomorrow?state=NSW",  // does not publish
        "/v1/tomorrow?fuel=DL&limit=1",
        "/v1/advice?fuel=U91&near=-31.9523,115.8613",  // Perth: tomorrow's prices decide
        "/v1/advice?fuel=U91&near=-23.70,133.88",  // outside every metro area
        "/v1/advice?fuel=LPG&city=sydney",  // not enough history
        "/v1/advice?fuel=U91&city=melbourne",  // skill: the rule does not beat the baselines
        "/v1/advice?fuel=U91&near=-33.3271,115.6414",  // Bunbury: WA tomorrow prices nearby
        "/v1/summary?state=VIC&fuel=U91&near=-38.1499,144.3617",  // Geelong: the advice /v1/advice gives there
        "/v1/summary?state=WA&fuel=U91",  // tomorrow counts
        "/v1/summary?state=NSW&fuel=U91&near=-33.8688,151.2093",
        "/v1/summary?state=TAS&fuel=U91",  // no cycling city, no prices
        "/v1/stations/3370/history?fuel=U91&days=90",  // VIC: seeded from the recorded days
        "/v1/stations/3370/history?fuel=cng",  // never sold there: empty arrays
        "/v1/fuels",
        "/v1/brands?state=qld",
        "/v1/brands?state=VIC",
    ]

    /// 400s the schemas cannot express (combinations and value ranges inside strings), by path.
    static let extraBadRequests = [
        "/v1/stations?radius_km=5",
        "/v1/stations?sort=price",
        "/v1/stations?sort=distance&state=NSW",
        "/v1/stations?near=200,0",
        "/v1/stations?near=-33.8,200",
        "/v1/stations?near=-33.8",
        "/v1/stations?bbox=1,2,3",
        "/v1/stations?bbox=-33,151,-34,152",
        "/v1/stations?bbox=-95,150,-34,151",
        "/v1/stations?bbox=-34,150,-33,181",
        "/v1/stations?bbox=a,b,c,d",
        "/v1/stations?ids=1,abc",
        "/v1/stations?ids=0",
        "/v1/stations?ids=1,,2",
        "/v1/stations?after=10&sort=name",  // after needs the id order
        "/v1/stations?after=10&offset=5",
        "/v1/stations?fueltype=U91",  // an unknown parameter
        "/v1/stations?q=!!!",  // no letter or digit
        "/v1/stations?q=kens&after=3",
        "/v1/prices/changes?cursor=c2.7ff0000000000000.1.station",  // +inf: never advances
        "/v1/prices/changes?cursor=c2.41f0000000000000.1.station",  // the year 2300
        "/v1/prices/cheapest?fuel=U91",
        "/v1/prices/cheapest?fuel=U91&state=NSW&litres=40",  // litres needs near
        "/v1/stations?fuel=U91&litres=40",
        "/v1/stations?near=-33.8688,151.2093&fuel=U91,E10&l_per_100km=8",  // one fuel only
        "/v1/stations?near=-33.8688,151.2093&sort=fill_cost",
        "/v1/stations/along?polyline=_p~iF",  // cut short
        "/v1/stations/along?polyline=_p~iF~ps%7CU",  // one point
        "/v1/stations/along?polyline=vnkmE%7Bksx%5BnlFsqO~tCo%7BKgr@ceJ&sort=price",  // price needs fuel
        "/v1/prices/cheapest?fuel=U91&state=NSW&radius_km=5",
        "/v1/prices/cheapest?fuel=U91&near=-91,0",
        "/v1/prices/changes?since=1736812800",
        "/v1/prices/changes?since=14/01/2026",
        "/v1/tomorrow?near=1,2,3",
        "/v1/tomorrow?ids=-1",
        "/v1/averages?state=Victoria",
        "/v1/trends?state=NSW&fuel=U91&days=0",
        "/v1/advice?fuel=U91",  // neither near nor city
        "/v1/advice?fuel=U91&city=melbourne&near=abc",
    ]

    // MARK: The spec itself

    @Test func specIsStrictJSONAndOpenAPI31() throws {
        let spec = try OpenAPISpec.load()
        let version = try #require(spec.document["openapi"]?.stringValue)
        #expect(version.hasPrefix("3.1."), "openapi is \(version)")
        #expect(spec.document["info"]?["title"]?.stringValue == "Petty API")
        #expect(spec.document["info"]?["version"]?.stringValue == "1")
        #expect(spec.document["info"]?["description"]?.stringValue?.contains("sample") == true)
        #expect(spec.document["servers"] == .array([.object(["url": .string("/")])]))

        for (at, target) in spec.references() {
            #expect(spec.validator.resolve(target) != nil, "\(at): $ref \(target) resolves to nothing")
        }

        var unsupported: [String] = []
        for (name, schema) in spec.document["components"]?["schemas"]?.objectValue ?? [:] {
            unsupported += SchemaValidator.unsupportedKeywords(in: schema, at: "#/components/schemas/\(name)")
        }
        for (at, schema) in Self.inlineSchemas(in: spec.document, at: "#") {
            unsupported += SchemaValidator.unsupportedKeywords(in: schema, at: at)
        }
        #expect(unsupported.isEmpty, "keywords the contract validator does not check: \(unsupported)")

        var operationIDs = Set<String>()
        for operation in spec.operations {
            let id = operation.operation["operationId"]?.stringValue
            #expect(id != nil && operationIDs.insert(id!).inserted, "\(operation): missing or duplicate operationId")
            let success = (operation.operation["responses"]?.objectValue ?? [:]).keys.contains { $0.hasPrefix("2") }
            #expect(success, "\(operation): no 2xx response")
            for parameter in spec.parameters(of: operation) {
                let name = parameter["name"]?.stringValue ?? "?"
                let location = parameter["in"]?.stringValue ?? "?"
                guard location == "query" || location == "path" else { continue }
                let schema = try #require(parameter["schema"], "\(operation) \(name): no schema")
                let example = try #require(parameter["example"], "\(operation) \(name): no example (the contract test calls every operation with its examples)")
                let problems = spec.validator.validate(example, against: schema, at: "\(operation) \(name) example")
                #expect(problems.isEmpty, "\(problems)")
                if location == "path" {
                    #expect(parameter["required"]?.boolValue == true, "\(operation) \(name): path parameters are required")
                    #expect(operation.path.contains("{\(name)}"), "\(operation): no {\(name)} in the path")
                }
            }
        }
    }

    // MARK: Routes and documentation

    @Test func everyRegisteredRouteIsDocumented() throws {
        let spec = try OpenAPISpec.load()
        let app = try AppTestSupport.sharedSampleApp()
        #expect(!app.routes.isEmpty)
        let undocumented = Self.undocumentedRoutes(app.routes, in: spec)
        #expect(undocumented.isEmpty, "registered but missing from Public/openapi.json: \(undocumented)")
    }

    @Test func anUndocumentedRouteIsCaught() throws {
        let spec = try OpenAPISpec.load()
        let app = Application(environment: .testing, logger: AppTestSupport.quietLogger())
        app.get("v1", "stations", ":id", use: { _ in "documented" })
        app.get("v1", "secret", ":token", use: { _ in "not documented" })
        app.on(.DELETE, "v1", "stations", ":id", use: { _ in "not documented either" })
        app.on(.HEAD, "v1", "stations", ":id", use: { _ in "implicit" })
        #expect(Self.undocumentedRoutes(app.routes, in: spec) == ["GET /v1/secret/{token}", "DELETE /v1/stations/{id}"])
    }

    @Test func everyDocumentedOperationIsRegistered() throws {
        let spec = try OpenAPISpec.load()
        let app = try AppTestSupport.sharedSampleApp()
        let registered = Set(app.routes.map { "\($0.method.rawValue) \(Self.openAPIPath($0))" })
        let registeredPaths = Set(app.routes.map(Self.openAPIPath))
        for operation in spec.operations {
            let key = "\(operation.method.uppercased()) \(operation.path)"
            if registered.contains(key) { continue }
            let pendingElsewhere = Self.pendingPaths.contains(operation.path) && !registeredPaths.contains(operation.path)
            #expect(pendingElsewhere, "\(key) is documented but no route answers it")
        }
    }

    // MARK: Shapes

    @Test func documentedOperationsAnswerWithTheDocumentedShapes() throws {
        let spec = try OpenAPISpec.load()
        let app = try AppTestSupport.sharedSampleApp()
        let registeredPaths = Set(app.routes.map(Self.openAPIPath))
        var checked = 0
        for operation in spec.operations where operation.method == "get" && registeredPaths.contains(operation.path) && !Self.needsDatabase(operation) {
            let target = spec.target(operation, query: spec.exampleQuery(operation))
            let mediaTypes = (spec.documentedResponse(of: operation, status: 200)?["content"]?.objectValue ?? [:]).keys.sorted()
            for mediaType in mediaTypes {
                let headers: HTTPHeaders = mediaTypes.count > 1 ? ["Accept": mediaType] : [:]
                let response = ObservedResponse(try app.test(.GET, target, headers: headers))
                #expect(response.status == 200, "GET \(target) [\(mediaType)]: \(response.status) \(response.bodyText.prefix(300))")
                let problems = spec.problems(with: response, for: operation, label: "GET \(target) [\(mediaType)]")
                #expect(problems.isEmpty, "\(problems)")
                #expect(response.mediaType == mediaType, "GET \(target) with Accept \(mediaType) answered \(response.header("Content-Type") ?? "-")")
                if mediaType == "application/json", let body = try? JSONParser.parse(response.body) {
                    // The examples are chosen to find data; an empty answer would validate nothing.
                    let empty = Self.emptyDataArrays(body)
                    #expect(empty.isEmpty, "GET \(target): the example request finds nothing in \(empty)")
                }
                checked += 1
            }
        }
        #expect(checked >= 8)
    }

    @Test func otherBranchesAnswerWithTheDocumentedShapes() throws {
        let spec = try OpenAPISpec.load()
        let app = try AppTestSupport.sharedSampleApp()
        for target in Self.variants {
            let operation = try #require(Self.operation(for: target, in: spec), "\(target) is not documented")
            let response = ObservedResponse(try app.test(.GET, target))
            #expect(response.status == 200, "GET \(target): \(response.status) \(response.bodyText.prefix(300))")
            let problems = spec.problems(with: response, for: operation, label: "GET \(target)")
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    /// No data at all: nullable and omitted fields, `source: none`, 503 from `/health`, 404 for any station.
    @Test func anEmptyStoreAnswersWithTheDocumentedShapes() throws {
        let spec = try OpenAPISpec.load()
        let app = try AppTestSupport.app(with: Dataset())
        let registeredPaths = Set(app.routes.map(Self.openAPIPath))
        for operation in spec.operations where operation.method == "get" && registeredPaths.contains(operation.path) && !Self.needsDatabase(operation) {
            let target = spec.target(operation, query: spec.exampleQuery(operation))
            let response = ObservedResponse(try app.test(.GET, target, headers: ["Accept": "application/json"]))
            let expected = operation.path == "/health" ? 503 : operation.path.contains("{id}") ? 404 : 200
            #expect(response.status == expected, "GET \(target) on an empty store: \(response.status) \(response.bodyText.prefix(300))")
            let problems = spec.problems(with: response, for: operation, label: "GET \(target) (empty store)")
            #expect(problems.isEmpty, "\(problems)")
        }
        let health = try JSONParser.parse(try app.test(.GET, "/health").body)
        #expect(health["status"]?.stringValue == "unavailable")
    }

    /// Without `PETTY_DATABASE_URL`, every alert operation (any method) answers the documented 503 saying so.
    @Test func everyAlertOperationAnswers503WithoutADatabase() throws {
        let spec = try OpenAPISpec.load()
        let app = try AppTestSupport.sharedSampleApp()
        var checked = 0
        for operation in spec.operations where Self.needsDatabase(operation) {
            let target = spec.target(operation, query: [], pathValues: ["id": "1", "alert_id": "1"])
            let method = HTTPMethod(token: operation.method.uppercased())
            let response = ObservedResponse(try app.test(method, target, headers: ["Content-Type": "application/json"], body: Array("{}".utf8)))
            #expect(response.status == 503, "\(method) \(target): \(response.status) \(response.bodyText.prefix(200))")
            #expect(response.header("Cache-Control") == "no-store")
            let problems = spec.problems(with: response, for: operation, label: "\(method) \(target)")
            #expect(problems.isEmpty, "\(problems)")
            let reason = (try? JSONParser.parse(response.body))?["reason"]?.stringValue
            #expect(reason == "price alerts need a database: set PETTY_DATABASE_URL")
            checked += 1
        }
        #expect(checked == 9)
    }

    /// A JSON body's declared fields (`DeclaredQueries.bodies`) are the properties its documented schema lists.
    @Test func everyDeclaredBodyIsTheDocumentedOne() throws {
        let spec = try OpenAPISpec.load()
        for declaration in DeclaredQueries.bodies {
            let parts = declaration.operation.split(separator: " ", maxSplits: 1).map(String.init)
            let operation = try #require(spec.operation(parts[0].lowercased(), parts[1]), "\(declaration.operation) is not documented")
            let schema = try #require(operation.operation["requestBody"]?["content"]?["application/json"]?["schema"].flatMap(spec.dereference))
            let documented = Set((schema["properties"]?.objectValue ?? [:]).keys)
            let declared = Set(declaration.names.map { String($0.prefix { $0 != "." }) })
            #expect(declared == documented, "\(declaration.operation): declared \(declared.sorted()), documented \(documented.sorted())")
        }
    }

    // MARK: Errors

    /// Each endpoint's parameters are declared once, as a type (`EndpointParameters`): the names it accepts are
    /// exactly the query parameters the spec documents for it, and every `/v1` GET operation has a declaration.
    @Test func everyDeclaredQueryIsTheDocumentedOne() throws {
        let spec = try OpenAPISpec.load()
        var documented: [String: Set<String>] = [:]
        for operation in spec.operations where operation.method == "get" && operation.path.hasPrefix("/v1/") {
            documented[operation.path] = Set(spec.parameters(of: operation).compactMap {
                $0["in"]?.stringValue == "query" ? $0["name"]?.stringValue : nil
            })
        }
        let declared = Dictionary(DeclaredQueries.all.map { ($0.operation, Set($0.names)) }, uniquingKeysWith: { a, _ in a })
        #expect(declared.count == DeclaredQueries.all.count, "two declarations name one operation")
        #expect(Set(declared.keys) == Set(documented.keys))
        for (operation, names) in declared {
            #expect(names == documented[operation], "\(operation): declared \(names.sorted()), documented \((documented[operation] ?? []).sorted())")
        }
    }

    /// Every documented constraint is enforced: a value that breaks a parameter's schema (enum, range, item
    /// count, format, pattern, emptiness, a missing required parameter) is a 400 with the `Error` body that
    /// names the parameter, and the boundary values the schema allows are accepted.
    @Test func parameterConstraintsAreTheDocumentedOnes() throws {
        let spec = try OpenAPISpec.load()
        let app = try AppTestSupport.sharedSampleApp()
        var rejected = 0
        var accepted = 0
        for operation in spec.operations where operation.method == "get" && !operation.path.contains("{") {
            let parameters = spec.parameters(of: operation).filter { $0["in"]?.stringValue == "query" }
            guard !parameters.isEmpty else { continue }
            #expect(spec.documentedResponse(of: operation, status: 400) != nil, "\(operation) takes query parameters but documents no 400")
            let example = spec.exampleQuery(operation)
            var probes = 0
            for parameter in parameters {
                let name = try #require(parameter["name"]?.stringValue)
                let schema = try #require(parameter["schema"])
                let excluded = Set((parameter["x-petty-excludes"]?.arrayValue ?? []).compactMap(\.stringValue))
                let others = example.filter { $0.0 != name && !excluded.contains($0.0) }

                if parameter["required"]?.boolValue == true {
                    let response = ObservedResponse(try app.test(.GET, spec.target(operation, query: others)))
                    Self.expectBadRequest(response, naming: name, for: operation, spec: spec, label: "GET \(operation.path) without \(name)")
                    probes += 1
                }

                for bad in Self.invalidValues(for: schema, example: parameter["example"], spec: spec) {
                    let typed = Self.typed(bad, schema: schema, spec: spec)
                    #expect(!spec.validator.validate(typed, against: schema).isEmpty, "\(operation) \(name)=\(bad): the probe is valid per the spec")
                    let target = spec.target(operation, query: others + [(name, bad)])
                    Self.expectBadRequest(ObservedResponse(try app.test(.GET, target)), naming: name, for: operation, spec: spec, label: "GET \(target)")
                    probes += 1
                    rejected += 1
                }

                // Where the page size is not the constraint under test, the smallest page keeps the checked body small.
                let smallPage = name == "limit" || excluded.contains("limit") ? others : Self.smallestPage(others, parameters: parameters)
                for good in Self.boundaryValues(for: schema, example: parameter["example"], spec: spec) {
                    let typed = Self.typed(good, schema: schema, spec: spec)
                    #expect(spec.validator.validate(typed, against: schema).isEmpty, "\(operation) \(name)=\(good.prefix(40)): boundary probe invalid per the spec")
                    let target = spec.target(operation, query: smallPage + [(name, good)])
                    let response = ObservedResponse(try app.test(.GET, target))
                    #expect(response.status == 200, "GET \(target.prefix(200)): a documented boundary value is refused: \(response.status) \(response.bodyText.prefix(200))")
                    #expect(spec.problems(with: response, for: operation).isEmpty)
                    accepted += 1
                }
            }
            #expect(probes > 0, "\(operation): no bad-parameter probe")
        }
        for target in Self.extraBadRequests {
            let operation = try #require(Self.operation(for: target, in: spec), "\(target) is not documented")
            Self.expectBadRequest(ObservedResponse(try app.test(.GET, target)), naming: nil, for: operation, spec: spec, label: "GET \(target)")
            rejected += 1
        }
        #expect(rejected > 40 && accepted > 10, "rejected \(rejected), accepted \(accepted)")
    }

    /// `since` is an RFC 3339 instant (or a bare date): text after it, impossible dates and missing offsets are 400s.
    @Test func sinceIsParsedStrictly() throws {
        let spec = try OpenAPISpec.load()
        let app = try AppTestSupport.sharedSampleApp()
        let operation = try #require(spec.operation("get", "/v1/prices/changes"))
        for since in ["2026-01-14T25:00:00Z", "2026-01-14T10:30:00", "2026-01-14garbage", "2026-02-30"] {
            let target = "/v1/prices/changes?since=\(since)"
            Self.expectBadRequest(ObservedResponse(try app.test(.GET, target)), naming: "since", for: operation, spec: spec, label: "GET \(target)")
        }
    }

    @Test func unknownStationsAreDocumented404s() throws {
        let spec = try OpenAPISpec.load()
        let app = try AppTestSupport.sharedSampleApp()
        let registeredPaths = Set(app.routes.map(Self.openAPIPath))
        var checked = 0
        for operation in spec.operations where operation.method == "get" && operation.path.contains("{id}") && !Self.needsDatabase(operation) {
            guard registeredPaths.contains(operation.path) else { continue }
            let documented = try #require(spec.documentedResponse(of: operation, status: 404), "\(operation) documents no 404")
            let mediaTypes = (documented["content"]?.objectValue ?? [:]).keys.sorted()
            for id in ["999999999", "0", "-1", "abc", "1.5"] {
                for mediaType in mediaTypes {
                    let target = spec.target(operation, query: [], pathValues: ["id": id])
                    let headers: HTTPHeaders = mediaTypes.count > 1 ? ["Accept": mediaType] : [:]
                    let response = ObservedResponse(try app.test(.GET, target, headers: headers))
                    #expect(response.status == 404, "GET \(target) [\(mediaType)]: \(response.status)")
                    let problems = spec.problems(with: response, for: operation, label: "GET \(target) [\(mediaType)]")
                    #expect(problems.isEmpty, "\(problems)")
                    checked += 1
                }
            }
        }
        #expect(checked >= 5)

        // Paths nobody documents get the same error body.
        let error = try #require(spec.document["components"]?["schemas"]?["Error"])
        for target in ["/v1/nope", "/v1/stations/1/prices", "/v2/stations"] {
            let response = ObservedResponse(try app.test(.GET, target))
            #expect(response.status == 404 && response.mediaType == "application/json", "GET \(target): \(response.status)")
            let body = try JSONParser.parse(response.body)
            #expect(spec.validator.validate(body, against: error).isEmpty, "GET \(target): \(response.bodyText)")
        }
    }

    // MARK: HTTP behaviour shared by every path

    @Test func conditionalRequestsAnswer304AsDocumented() throws {
        let spec = try OpenAPISpec.load()
        let app = try AppTestSupport.sharedSampleApp()
        var covered = Set<String>()
        for operation in spec.operations where operation.method == "get" && spec.documentedResponse(of: operation, status: 304) != nil {
            let names = spec.parameters(of: operation).compactMap { $0["in"]?.stringValue == "header" ? $0["name"]?.stringValue : nil }
            #expect(names.contains("If-None-Match"), "\(operation) documents 304 but not the If-None-Match parameter")
            let target = spec.target(operation, query: spec.exampleQuery(operation))
            let first = ObservedResponse(try app.test(.GET, target))
            #expect(first.status == 200)
            let etag = try #require(first.header("ETag"), "GET \(target): no ETag")
            let lastModified = try #require(first.header("Last-Modified"), "GET \(target): no Last-Modified")

            let revalidated = ObservedResponse(try app.test(.GET, target, headers: ["If-None-Match": etag]))
            #expect(revalidated.status == 304, "GET \(target) If-None-Match \(etag): \(revalidated.status)")
            #expect(revalidated.header("ETag") == etag)
            #expect(spec.problems(with: revalidated, for: operation, label: "GET \(target) (revalidated)").isEmpty)

            let byDate = ObservedResponse(try app.test(.GET, target, headers: ["If-Modified-Since": lastModified]))
            #expect(byDate.status == 304, "GET \(target) If-Modified-Since \(lastModified): \(byDate.status)")

            let stale = ObservedResponse(try app.test(.GET, target, headers: ["If-None-Match": "W/\"0\"", "If-Modified-Since": lastModified]))
            #expect(stale.status == 200, "a non-matching If-None-Match wins over If-Modified-Since")
            #expect(stale.body == first.body)
            covered.insert(operation.path)
        }
        #expect(
            covered.isSuperset(of: ["/v1/stations", "/v1/stations/{id}", "/v1/stations/{id}/history", "/v1/fuels", "/v1/brands"]),
            "304 coverage: \(covered.sorted())")

        // A validator from one representation does not revalidate another.
        for (one, other) in [("/v1/stations?state=NSW", "/v1/stations?state=VIC"), ("/v1/stations/3300", "/v1/stations/3370")] {
            let etag = try #require(try app.test(.GET, one).headers.first(name: "ETag"))
            #expect(try app.test(.GET, other, headers: ["If-None-Match": etag]).status == .ok, "\(one)'s ETag revalidated \(other)")
        }
    }

    @Test func headOptionsAndOtherMethodsBehaveAsDocumented() throws {
        let spec = try OpenAPISpec.load()
        let app = try AppTestSupport.sharedSampleApp()
        let registeredPaths = Set(app.routes.map(Self.openAPIPath))
        let methodNotAllowed = OpenAPISpec.Operation(
            method: "post", path: "(any)",
            operation: .object(["responses": .object(["405": .object(["$ref": .string("#/components/responses/MethodNotAllowed")])])]))
        let description = spec.document["info"]?["description"]?.stringValue ?? ""
        #expect(description.contains("405") && description.contains("HEAD") && description.contains("OPTIONS"))

        for operation in spec.operations where operation.method == "get" && registeredPaths.contains(operation.path) {
            let target = spec.target(operation, query: spec.exampleQuery(operation))
            let get = ObservedResponse(try app.test(.GET, target))
            let head = ObservedResponse(try app.test(.HEAD, target))
            #expect(head.status == get.status && head.body.isEmpty, "HEAD \(target): \(head.status)")
            #expect(head.header("Content-Type") == get.header("Content-Type") && head.header("ETag") == get.header("ETag"))

            // The methods the spec documents for the path, with HEAD (as this is a GET) and OPTIONS, alphabetically.
            let documented = Set(spec.operations.filter { $0.path == operation.path }.map { $0.method.uppercased() })
            let allowed = documented.union(["HEAD", "OPTIONS"]).sorted().joined(separator: ", ")
            let options = ObservedResponse(try app.test(.OPTIONS, target))
            #expect(options.status == 204 && options.header("Allow") == allowed, "OPTIONS \(target): \(options.status) \(options.header("Allow") ?? "-")")

            for method in [HTTPMethod.POST, .PUT, .DELETE, .PATCH] where !documented.contains(method.rawValue) {
                let response = ObservedResponse(try app.test(method, target))
                #expect(response.status == 405, "\(method) \(target): \(response.status)")
                #expect(response.header("Allow") == allowed)
                let problems = spec.problems(with: response, for: methodNotAllowed, label: "\(method) \(target)")
                #expect(problems.isEmpty, "\(problems)")
            }
        }
    }

    @Test func theSpecIsServedAtOpenAPIJSON() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let response = ObservedResponse(try app.test(.GET, "/openapi.json"))
        #expect(response.status == 200)
        #expect(response.mediaType == "application/json")
        #expect(response.body == Array(try Data(contentsOf: OpenAPISpec.fileURL)))
    }

    /// `GET /stations/{id}` (the share page) is added on another branch; once merged, its JSON form must be
    /// the `GET /v1/stations/{id}` body.
    @Test func theSharePageJSONIsTheStationDetail() throws {
        let app = try AppTestSupport.sharedSampleApp()
        guard app.routes.contains(where: { Self.openAPIPath($0) == "/stations/{id}" && $0.method == .GET }) else { return }
        let json = try app.test(.GET, "/stations/3300", headers: ["Accept": "application/json"])
        let detail = try app.test(.GET, "/v1/stations/3300")
        #expect(try JSONParser.parse(json.body) == JSONParser.parse(detail.body))
        let html = ObservedResponse(try app.test(.GET, "/stations/3300", headers: ["Accept": "text/html"]))
        #expect(html.status == 200 && html.mediaType == "text/html")
    }

    // MARK: Helpers

    /// The alert operations: they answer from PostgreSQL, so an app without `PETTY_DATABASE_URL` answers 503.
    static func needsDatabase(_ operation: OpenAPISpec.Operation) -> Bool {
        operation.path.hasPrefix("/v1/devices")
    }

    /// `/v1/stations/:id` → `/v1/stations/{id}`.
    static func openAPIPath(_ route: Route) -> String {
        "/" + route.path.map { component -> String in
            if case .parameter(let name) = component { return "{\(name)}" }
            return component.description
        }.joined(separator: "/")
    }

    /// Registered routes with no operation in the spec; HEAD and OPTIONS are implicit.
    static func undocumentedRoutes(_ routes: [Route], in spec: OpenAPISpec) -> [String] {
        routes.filter { $0.method != .HEAD && $0.method != .OPTIONS }.compactMap { route in
            let path = openAPIPath(route)
            return spec.operation(route.method.rawValue.lowercased(), path) == nil ? "\(route.method.rawValue) \(path)" : nil
        }
    }

    static func operation(for target: String, in spec: OpenAPISpec) -> OpenAPISpec.Operation? {
        let path = String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0])
        return spec.template(matching: path).flatMap { spec.operation("get", $0) }
    }

    static func expectBadRequest(_ response: ObservedResponse, naming name: String?, for operation: OpenAPISpec.Operation, spec: OpenAPISpec, label: String) {
        #expect(response.status == 400, "\(label): \(response.status) \(response.bodyText.prefix(200))")
        let problems = spec.problems(with: response, for: operation, label: label)
        #expect(problems.isEmpty, "\(problems)")
        if let name, response.status == 400 {
            let reason = (try? JSONParser.parse(response.body))?["reason"]?.stringValue ?? ""
            #expect(reason.contains(name), "\(label): the reason does not name \(name): \(reason)")
        }
    }

    /// Query texts that break `schema` (derived from it, so a tightened or loosened spec changes the probes).
    static func invalidValues(for schema: JSONValue, example: JSONValue?, spec: OpenAPISpec) -> [String] {
        let schema = spec.dereference(schema) ?? schema
        var values = [""]
        if schema["enum"] != nil { values.append("XYZ") }
        switch schema["type"]?.stringValue {
        case "integer":
            values += ["abc", "1.5"]
            if let minimum = schema["minimum"]?.doubleValue { values.append(String(Int(minimum) - 1)) }
            if let maximum = schema["maximum"]?.doubleValue { values.append(String(Int(maximum) + 1)) }
        case "number":
            values.append("abc")
            if let minimum = schema["minimum"]?.doubleValue { values.append(number(minimum - 1)) }
            if let maximum = schema["maximum"]?.doubleValue { values.append(number(maximum + 1)) }
        case "string":
            if schema["format"] != nil || schema["pattern"] != nil { values.append("not-valid") }
        case "array":
            let items = example?.arrayValue ?? []
            let item = items.first.map(OpenAPISpec.queryText) ?? "1"
            if let maximum = schema["maxItems"]?.doubleValue {
                values.append(Array(repeating: item, count: Int(maximum) + 1).joined(separator: ","))
            }
            if let minimum = schema["minItems"]?.doubleValue, minimum > 1 {
                values.append(items.prefix(Int(minimum) - 1).map(OpenAPISpec.queryText).joined(separator: ","))
            }
            if let itemSchema = schema["items"].flatMap(spec.dereference), let minimum = itemSchema["minimum"]?.doubleValue,
               itemSchema["type"]?.stringValue == "integer" {
                values.append(([String(Int(minimum) - 1)] + items.dropFirst().map(OpenAPISpec.queryText)).joined(separator: ","))
            }
        default:
            break
        }
        return values
    }

    /// Query texts at the edges of what `schema` allows.
    /// `query` with `limit` at its documented minimum, when the operation takes a `limit`.
    static func smallestPage(_ query: [(String, String)], parameters: [JSONValue]) -> [(String, String)] {
        guard let limit = parameters.first(where: { $0["name"]?.stringValue == "limit" }),
              let minimum = limit["schema"]?["minimum"]?.doubleValue else { return query }
        return query.filter { $0.0 != "limit" } + [("limit", String(Int(minimum)))]
    }

    static func boundaryValues(for schema: JSONValue, example: JSONValue?, spec: OpenAPISpec) -> [String] {
        let schema = spec.dereference(schema) ?? schema
        var values: [String] = []
        switch schema["type"]?.stringValue {
        case "integer":
            values += [schema["minimum"], schema["maximum"]].compactMap { $0?.doubleValue.map { String(Int($0)) } }
        case "number":
            values += [schema["minimum"], schema["maximum"]].compactMap { $0?.doubleValue.map(number) }
        case "array":
            if let maximum = schema["maxItems"]?.doubleValue, let item = example?.arrayValue?.first {
                values.append(Array(repeating: OpenAPISpec.queryText(item), count: Int(maximum)).joined(separator: ","))
            }
        default:
            if let options = schema["enum"]?.arrayValue {
                values += options.compactMap(\.stringValue).filter { $0 != example?.stringValue }.prefix(2)
            }
        }
        return values
    }

    /// A query text as the JSON value the schema describes, so probes can be checked against the spec.
    static func typed(_ text: String, schema: JSONValue, spec: OpenAPISpec) -> JSONValue {
        let resolved = spec.dereference(schema) ?? schema
        switch resolved["type"]?.stringValue {
        case "integer", "number":
            return (try? JSONParser.parse(text)).flatMap { $0.doubleValue == nil ? nil : $0 } ?? .string(text)
        case "array":
            guard !text.isEmpty else { return .string(text) }
            let itemSchema = resolved["items"] ?? .bool(true)
            return .array(text.split(separator: ",", omittingEmptySubsequences: false).map { typed(String($0), schema: itemSchema, spec: spec) })
        default:
            return .string(text)
        }
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }

    /// Schemas that sit inline under `schema` keys (parameters, media types, headers), with where they are.
    static func inlineSchemas(in value: JSONValue, at path: String) -> [(String, JSONValue)] {
        switch value {
        case .object(let members):
            return members.sorted { $0.key < $1.key }.flatMap { key, member in
                key == "schema" ? [("\(path)/schema", member)] : inlineSchemas(in: member, at: "\(path)/\(key)")
            }
        case .array(let items):
            return items.enumerated().flatMap { inlineSchemas(in: $1, at: "\(path)/\($0)") }
        default:
            return []
        }
    }

    /// Where an answer holds no data: `data` itself, or an array directly under it.
    static func emptyDataArrays(_ body: JSONValue) -> [String] {
        switch body["data"] {
        case .array(let items)?: return items.isEmpty ? ["data"] : []
        case .object(let members)?: return members.filter { $0.value.arrayValue?.isEmpty == true }.map { "data.\($0.key)" }.sorted()
        default: return []
        }
    }
}
