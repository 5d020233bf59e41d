import Foundation
import HTTP
import Testing
@testable import API
@testable import App
import Fuel

/// `Public/index.html` is where a new app developer starts: it must mention every operation `openapi.json`
/// documents and every query parameter of `/v1/stations`, so nothing the API does is found only by reading the spec.
@Suite struct IndexPageDocsTests {
    static func spec() throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: AppTestSupport.publicDirectory + "/openapi.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    static func indexPage() throws -> String {
        let response = try AppTestSupport.sharedSampleApp().test(.GET, "/")
        #expect(response.status == .ok)
        return response.bodyString
    }

    /// `/v1/stations/{id}/history` as a pattern that matches an example request `<code>GET /v1/stations/1/history?`
    /// (or a POST, PUT or DELETE, for paths such as `/v1/devices` that take no GET).
    static func examplePattern(_ path: String) -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map { part in
            part.hasPrefix("{") ? "[^/?<\\s]+" : NSRegularExpression.escapedPattern(for: String(part))
        }
        return "<code>(GET|POST|PUT|DELETE) " + parts.joined(separator: "/") + "(\\?|</code>)"
    }

    @Test func everyDocumentedPathHasAnExampleOnTheIndexPage() throws {
        let paths = try #require(try Self.spec()["paths"] as? [String: Any])
        let html = try Self.indexPage()
        #expect(paths.count >= 17)
        for path in paths.keys.sorted() {
            #expect(html.range(of: Self.examplePattern(path), options: .regularExpression) != nil, "index.html has no example of \(path)")
        }
    }

    @Test func theCheckCatchesAMissingPath() {
        let html = "<code>GET /v1/stations?<wbr>state=NSW</code> <code>GET /v1/stations/1</code>"
        #expect(html.range(of: Self.examplePattern("/v1/stations"), options: .regularExpression) != nil)
        #expect(html.range(of: Self.examplePattern("/v1/stations/{id}"), options: .regularExpression) != nil)
        #expect(html.range(of: Self.examplePattern("/v1/stations/{id}/history"), options: .regularExpression) == nil)
        #expect(html.range(of: Self.examplePattern("/v1/fuels"), options: .regularExpression) == nil)
    }

    @Test func everyQueryParameterOfStationsIsExplained() throws {
        let spec = try Self.spec()
        let paths = try #require(spec["paths"] as? [String: Any])
        let operation = try #require((paths["/v1/stations"] as? [String: Any])?["get"] as? [String: Any])
        let shared = (spec["components"] as? [String: Any])?["parameters"] as? [String: Any] ?? [:]
        let parameters = try #require(operation["parameters"] as? [[String: Any]]).compactMap { parameter -> [String: Any]? in
            guard let ref = parameter["$ref"] as? String else { return parameter }
            return shared[String(ref.split(separator: "/").last ?? "")] as? [String: Any]
        }
        let names = parameters.filter { $0["in"] as? String == "query" }.compactMap { $0["name"] as? String }
        #expect(names.contains("after") && names.contains("compact") && names.contains("q"))
        let html = try Self.indexPage()
        let start = try #require(html.range(of: "<h3 id=\"stations-parameters\">"))
        let section = html[start.upperBound...]
        let list = try #require(section.range(of: "</dl>")).lowerBound
        let explained = String(section[..<list])
        for name in names {
            #expect(explained.contains("<code>\(name)</code>"), "index.html does not explain /v1/stations?\(name)")
        }
    }

    /// The home page is a static file (nginx may serve it), so it repeats the share pages' chrome: it must say what
    /// `PageChrome` says, every provider's licence credit included.
    @Test func theHomePageCarriesTheSharedHeadAndEveryProvidersCredit() throws {
        let html = try Self.indexPage()
        #expect(html.contains(PageChrome.headEnd.description), "index.html's head links and site header differ from PageChrome.headEnd")
        #expect(html.contains(PageChrome.disclaimer.description))
        let footer = try #require(html.range(of: "<footer class=\"site\">")).upperBound
        for provider in ProviderID.allCases {
            #expect(html[footer...].contains(PageChrome.attribution(provider).description), "index.html's footer does not credit \(provider)")
        }
    }
}
