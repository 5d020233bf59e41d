import Testing
@testable import HTTP

@Suite struct RouterTests {
    struct Item: Content {
        var itemID: Int
        var displayName: String
    }

    @Test func typedParametersAreReadFromThePath() throws {
        let app = makeTestApp()
        try app.test(.GET, "/items/17") { res in
            #expect(res.status == .ok)
            #expect(res.bodyString == "item 17")
        }
        try app.test(.GET, "/items/abc") { res in
            #expect(res.status == .badRequest)
            #expect(res.bodyString.contains("Path parameter 'id' must be a valid Int"))
        }
    }

    @Test func constantsWinOverParametersAndBacktrack() throws {
        let app = makeTestApp { app in
            app.get("a", "fixed", "x") { _ in "constant" }
            app.get("a", ":p", "y") { req in "param \(req.parameters.get("p") ?? "")" }
        }
        #expect(try app.test(.GET, "/a/fixed/x").bodyString == "constant")
        #expect(try app.test(.GET, "/a/fixed/y").bodyString == "param fixed")
    }

    @Test func wildcardsMatchOneSegmentAndCatchallTheRest() throws {
        let app = makeTestApp { app in
            app.get("one", "*", "end") { _ in "one" }
            app.get("files", "**") { req in req.parameters.catchall.joined(separator: "|") }
        }
        #expect(try app.test(.GET, "/one/anything/end").bodyString == "one")
        #expect(try app.test(.GET, "/one/a/b/end").status == .notFound)
        #expect(try app.test(.GET, "/files/a/b/c").bodyString == "a|b|c")
    }

    @Test func trailingSlashIsTolerated() throws {
        let app = makeTestApp()
        #expect(try app.test(.GET, "/hello/").bodyString == "hello")
    }

    @Test func unknownPathIs404WithAJSONReason() throws {
        let res = try makeTestApp().test(.GET, "/missing")
        #expect(res.status == .notFound)
        #expect(res.headers.first(name: "Content-Type") == "application/json; charset=utf-8")
        #expect(res.bodyString == #"{"error":true,"reason":"Not Found"}"#)
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let res = try makeTestApp().test(.PUT, "/echo")
        #expect(res.status == .methodNotAllowed)
        #expect(res.headers.first(name: "Allow") == "OPTIONS, POST")
    }

    @Test func unimplementedMethodIs501() throws {
        let res = try makeTestApp().test(.other("PURGE"), "/hello")
        #expect(res.status == .notImplemented)
    }

    @Test func optionsListsTheAllowedMethods() throws {
        let res = try makeTestApp().test(.OPTIONS, "/hello")
        #expect(res.status == .noContent)
        #expect(res.headers.first(name: "Allow") == "GET, HEAD, OPTIONS")
    }

    @Test func headIsAnsweredByTheGetRoute() throws {
        let res = try makeTestApp().test(.HEAD, "/hello")
        #expect(res.status == .ok)
        #expect(res.body.isEmpty)
    }

    @Test func groupsPrefixPathsAndWrapMiddleware() throws {
        struct Tag: Middleware {
            func respond(to request: Request, chainingTo next: Responder) throws -> Response {
                var response = try next.respond(to: request)
                response.headers.add(name: "X-Tag", value: "grouped")
                return response
            }
        }
        let app = makeTestApp { app in
            let v1 = app.grouped("v1").grouped(Tag())
            v1.get("ping") { _ in "pong" }
        }
        let res = try app.test(.GET, "/v1/ping")
        #expect(res.bodyString == "pong")
        #expect(res.headers.first(name: "X-Tag") == "grouped")
        #expect(try app.test(.GET, "/hello").headers.first(name: "X-Tag") == nil)
    }

    @Test func routeCollectionsRegisterTheirRoutes() throws {
        struct Controller: RouteCollection {
            func boot(routes: RoutesBuilder) throws {
                routes.group("things") { things in
                    things.get(":id") { req in "thing \(req.parameters.get("id") ?? "")" }
                }
            }
        }
        let app = makeTestApp { try? $0.register(collection: Controller()) }
        #expect(try app.test(.GET, "/things/9").bodyString == "thing 9")
    }

    @Test func contentIsJSONWithSnakeCaseKeys() throws {
        let app = makeTestApp { app in
            app.get("item") { _ in Item(itemID: 3, displayName: "Three") }
        }
        let res = try app.test(.GET, "/item")
        #expect(res.headers.first(name: "Content-Type") == "application/json; charset=utf-8")
        #expect(res.bodyString == #"{"display_name":"Three","item_id":3}"#)
    }

    @Test func aStatusReturnsAnEmptyBody() throws {
        let app = makeTestApp { $0.get("nothing") { _ in HTTPStatus.accepted } }
        let res = try app.test(.GET, "/nothing")
        #expect(res.status == .accepted)
        #expect(res.body.isEmpty)
    }

    @Test func typedQueryValuesAreDecoded() throws {
        let app = makeTestApp { app in
            app.get("q") { req -> String in
                let query = req.query
                return "\(query["state"] ?? "-") \(query.values(for: "id").joined(separator: ","))"
            }
        }
        #expect(try app.test(.GET, "/q?state=NSW&id=1&id=2").bodyString == "NSW 1,2")
    }

    @Test func internalErrorsHideDetailsInProduction() throws {
        struct Secret: Error {}
        for (environment, reveals) in [(Environment.production, false), (.development, true)] {
            let app = Application(environment: environment, logger: Logger(label: "t", level: .critical, sink: .inMemory()))
            app.get("boom") { _ -> String in throw Secret() }
            let res = try app.test(.GET, "/boom")
            #expect(res.status == .internalServerError)
            #expect(res.bodyString.contains("Secret") == reveals)
        }
    }
}
