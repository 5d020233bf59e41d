import Foundation
import HTTP
import Testing
@testable import API
@testable import App

/// A parameter a `/v1` endpoint does not take is a 400 that names it, suggests what was meant
/// and lists what the endpoint takes; share pages keep ignoring the tracking parameters links arrive with.
@Suite struct UnknownParameterTests: OnSampleApp {
    private func reason(_ path: String) throws -> String {
        let response = try app.test(.GET, path)
        #expect(response.status == .badRequest, "\(path) answered \(response.status)")
        return try AppTestSupport.json(response)["reason"] as? String ?? ""
    }

    @Test func typosOfFiltersAreRefusedWithASuggestion() throws {
        for (typo, meant) in [("fueltype", "fuel"), ("fuel_type", "fuel"), ("State", "state"), ("radius", "radius_km"), ("ofset", "offset")] {
            let reason = try reason("/v1/stations?\(typo)=U91")
            #expect(reason.contains("'\(typo)'") && reason.contains("did you mean '\(meant)'?"), "\(typo): \(reason)")
        }
        let reason = try reason("/v1/stations?suburb=Bondi")
        #expect(reason.hasPrefix("Unknown parameter 'suburb'") && !reason.contains("did you mean"), "\(reason)")
    }

    /// Both directions against the spec: every documented parameter is accepted (the contract test's examples),
    /// and on every `/v1` operation an undocumented one is refused with a reason listing each documented one.
    /// The device routes answer 503 here (no database) and 401 before reading a query: their unknown parameters are
    /// checked with a backend in `DeviceRoutesValidationTests`.
    @Test func everyV1OperationRefusesAnUndocumentedParameterAndListsTheDocumentedOnes() throws {
        let spec = try OpenAPISpec.load()
        var checked = 0
        for operation in spec.operations where operation.method == "get" && operation.path.hasPrefix("/v1/") && !OpenAPIContractTests.needsDatabase(operation) {
            let documented = spec.parameters(of: operation).compactMap { $0["in"]?.stringValue == "query" ? $0["name"]?.stringValue : nil }
            let target = spec.target(operation, query: spec.exampleQuery(operation) + [("utm_source", "x")])
            let response = ObservedResponse(try app.test(.GET, target))
            #expect(response.status == 400, "GET \(target): \(response.status)")
            #expect(spec.problems(with: response, for: operation).isEmpty)
            let reason = (try? JSONParser.parse(response.body))?["reason"]?.stringValue ?? ""
            #expect(reason.contains("'utm_source'"), "\(target): \(reason)")
            for name in documented {
                #expect(reason.contains(name), "\(operation.path): the reason does not list \(name): \(reason)")
            }
            if documented.isEmpty { #expect(reason.contains("takes no query parameters"), "\(reason)") }
            checked += 1
        }
        #expect(checked >= 12)
    }

    @Test func sharePagesIgnoreTrackingParameters() throws {
        let response = try app.test(.GET, "/stations/1?utm_source=whatsapp&fbclid=abc123&utm_campaign=x")
        #expect(response.status == .ok)
    }

    @Test func suggestionsPreferTheSameNameThenAPrefixThenAFewEdits() {
        let known = UnknownParameter(operation: "/v1/x", known: ["fuel", "near", "radius_km", "limit"])
        #expect(known.suggestion(for: "FUEL") == "fuel")
        #expect(known.suggestion(for: "radius") == "radius_km")
        #expect(known.suggestion(for: "limt") == "limit")
        #expect(known.suggestion(for: "zz") == nil)
        #expect(known.suggestion(for: "postcode") == nil)
    }

    /// A long unknown name costs no more than a short one: past 64 bytes there is no suggestion, and the edit
    /// distance gives up once every cell of a row is past two edits.
    @Test func aLongUnknownNameGetsNoSuggestion() throws {
        let known = UnknownParameter(operation: "/v1/x", known: ["fuel", "near", "radius_km", "limit"])
        #expect(known.suggestion(for: String(repeating: "f", count: 64) ) == nil)
        #expect(known.suggestion(for: "fuel" + String(repeating: "x", count: 61)) == nil)
        #expect(known.suggestion(for: "fuel" + String(repeating: "x", count: 60)) == "fuel")
        let reason = try reason("/v1/stations?\(String(repeating: "fuelx", count: 1_600))=U91")
        #expect(reason.hasPrefix("Unknown parameter 'fuelx") && !reason.contains("did you mean"), "\(reason.prefix(120))")
    }

    @Test func editDistanceStopsPastItsLimit() {
        let distance = { (a: String, b: String, limit: Int) in UnknownParameter.editDistance(Array(a.utf8), Array(b.utf8), atMost: limit) }
        #expect(distance("limt", "limit", 2) == 1)
        #expect(distance("ofset", "offset", 1) == 1)
        #expect(distance("fule", "fuel", 2) == 2)
        #expect(distance("fule", "fuel", 1) == nil)
        #expect(distance("abcdef", "uvwxyz", 2) == nil)
        #expect(distance("a", "abcd", 2) == nil)
    }
}
