import Foundation
import HTTP
import Testing

@testable import API
@testable import App

/// The contract tests are only as good as their checker: these prove that the JSON reader, the schema
/// validator and the response check reject what they should (and accept what they should).
@Suite struct OpenAPIValidatorTests {
    static let document = try! JSONParser.parse(#"""
        {"components": {"schemas": {
          "Thing": {"type": "object", "additionalProperties": false, "required": ["id", "name", "postcode"],
            "properties": {
              "id": {"type": "integer", "minimum": 1},
              "name": {"type": "string", "minLength": 1},
              "postcode": {"type": ["string", "null"], "pattern": "^[0-9]{4}$"},
              "price": {"type": "number", "maximum": 999.9},
              "state": {"$ref": "#/components/schemas/State"},
              "seen": {"type": "string", "format": "date-time"},
              "day": {"type": "string", "format": "date"},
              "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 2},
              "flag": {"enum": [true]},
              "either": {"oneOf": [{"type": "integer"}, {"type": "number", "minimum": 10}]},
              "any": {"anyOf": [{"type": "null"}, {"type": "boolean"}]}
            }},
          "State": {"type": "string", "enum": ["NSW", "VIC"]},
          "Loose": {"type": "object", "properties": {"x": {"type": "integer"}}},
          "Odd": {"type": "string", "contentEncoding": "base64"}
        }}}
        """#)
    static let validator = SchemaValidator(document: document)
    static let thing = JSONValue.object(["$ref": .string("#/components/schemas/Thing")])

    static func problems(_ json: String, _ schema: JSONValue = thing) throws -> [String] {
        validator.validate(try JSONParser.parse(json), against: schema)
    }

    @Test func aValidInstancePasses() throws {
        #expect(try Self.problems(#"{"id": 1, "name": "A", "postcode": null}"#) == [])
        #expect(try Self.problems(#"""
            {"id": 7, "name": "Shell", "postcode": "2000", "price": 189.9, "state": "VIC", "seen": "2026-01-14T22:51:45Z",
             "day": "2026-04-23", "tags": ["a", "b"], "flag": true, "either": 3, "any": false}
            """#) == [])
        #expect(try Self.problems(#"{"x": 1, "y": "extra allowed"}"#, .object(["$ref": .string("#/components/schemas/Loose")])) == [])
    }

    @Test(arguments: [
        (#"{"name": "A", "postcode": null}"#, "missing required property 'id'"),
        (#"{"id": 1, "name": "A", "postcode": null, "surprise": 1}"#, "undocumented property 'surprise'"),
        (#"{"id": "1", "name": "A", "postcode": null}"#, "expected integer, got string"),
        (#"{"id": 1.0, "name": "A", "postcode": null}"#, "expected integer, got number"),
        (#"{"id": 0, "name": "A", "postcode": null}"#, "below minimum"),
        (#"{"id": 1, "name": null, "postcode": null}"#, "expected string, got null"),
        (#"{"id": 1, "name": "", "postcode": null}"#, "shorter than minLength"),
        (#"{"id": 1, "name": "A", "postcode": 2000}"#, "expected string or null, got integer"),
        (#"{"id": 1, "name": "A", "postcode": "20000"}"#, "does not match pattern"),
        (#"{"id": 1, "name": "A", "postcode": null, "price": 1000}"#, "above maximum"),
        (#"{"id": 1, "name": "A", "postcode": null, "price": "189.9"}"#, "expected number, got string"),
        (#"{"id": 1, "name": "A", "postcode": null, "state": "QLD"}"#, "is not one of"),
        (#"{"id": 1, "name": "A", "postcode": null, "seen": "2026-01-14 22:51:45"}"#, "is not a valid date-time"),
        (#"{"id": 1, "name": "A", "postcode": null, "day": "2026-13-01"}"#, "is not a valid date"),
        (#"{"id": 1, "name": "A", "postcode": null, "tags": ["a", 2]}"#, "$.tags[1]: expected string"),
        (#"{"id": 1, "name": "A", "postcode": null, "tags": ["a", "b", "c"]}"#, "more than maxItems"),
        (#"{"id": 1, "name": "A", "postcode": null, "flag": false}"#, "is not one of"),
        (#"{"id": 1, "name": "A", "postcode": null, "either": 12}"#, "matches 2 of oneOf"),
        (#"{"id": 1, "name": "A", "postcode": null, "either": 1.5}"#, "matches 0 of oneOf"),
        (#"{"id": 1, "name": "A", "postcode": null, "any": 0}"#, "matches none of anyOf"),
        (#"[{"id": 1, "name": "A", "postcode": null}]"#, "expected object, got array"),
    ])
    func aWrongShapeFails(json: String, expected: String) throws {
        let problems = try Self.problems(json)
        #expect(problems.contains { $0.contains(expected) }, "\(json): \(problems)")
    }

    @Test func schemaMistakesAreReportedNotIgnored() throws {
        let missing = try Self.problems(#"{"a": 1}"#, .object(["$ref": .string("#/components/schemas/Nope")]))
        #expect(missing.contains { $0.contains("unresolvable $ref") })
        let odd = try Self.problems(#""abc""#, .object(["$ref": .string("#/components/schemas/Odd")]))
        #expect(odd.contains { $0.contains("unsupported schema keyword 'contentEncoding'") })
        let format = try Self.problems(#""abc""#, .object(["type": .string("string"), "format": .string("email")]))
        #expect(format.contains { $0.contains("unsupported format") })
        #expect(SchemaValidator.unsupportedKeywords(in: Self.document["components"]!["schemas"]!["Odd"]!, at: "Odd") == ["Odd/contentEncoding"])
        #expect(try Self.problems("1", .bool(false)).count == 1)
    }

    @Test(arguments: [
        #"{"a": 1, "a": 2}"#,  // duplicate keys: a hand-written encoder writing a field twice
        #"{"a": 1,}"#,
        #"[1, 2,]"#,
        #"{"a": 01}"#,
        #"{"a": .5}"#,
        #"{"a": 1} x"#,
        #"[1, 2"#,
        #"{"a": "\x"}"#,
        #"{"a": NaN}"#,
        #"{'a': 1}"#,
        "\"tab\tinside\"",
        "",
    ])
    func theReaderIsStrict(json: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(json) }
    }

    @Test func theReaderKeepsWhatJSONSerializationLoses() throws {
        let value = try JSONParser.parse(#"{"i": 42, "d": 42.0, "e": 1e3, "b": true, "s": "caf\u00e9 \ud83d\ude00 \"q\" \/", "n": null, "neg": -0.5}"#)
        #expect(value["i"]?.isIntegerLiteral == true)
        #expect(value["d"]?.isIntegerLiteral == false)
        #expect(value["e"]?.isIntegerLiteral == false && value["e"]?.doubleValue == 1000)
        #expect(value["i"] == value["d"])  // equal as values, different as literals
        #expect(value["b"] == .bool(true) && value["b"] != .number(1, text: "1"))
        #expect(value["s"]?.stringValue == "café 😀 \"q\" /")
        #expect(value["n"] == .null)
        #expect(value["neg"]?.doubleValue == -0.5)
    }

    /// The real schemas, on a real answer, catch real mutations.
    @Test func theRealSpecRejectsAMutatedStation() throws {
        let spec = try OpenAPISpec.load()
        let app = try AppTestSupport.sharedSampleApp()
        let body = try JSONParser.parse(try app.test(.GET, "/v1/stations/3300").body)
        let schema = JSONValue.object(["$ref": .string("#/components/schemas/StationDetail")])
        #expect(spec.validator.validate(body, against: schema) == [])

        guard case .object(var envelope) = body, case .object(var station)? = envelope["data"] else {
            Issue.record("unexpected body \(body)")
            return
        }
        var mutations: [(String, JSONValue, String)] = []
        var copy = station
        copy["id"] = nil
        mutations.append(("no id", .object(copy), "missing required property 'id'"))
        copy = station
        copy["lat"] = .number(1, text: "1")
        mutations.append(("extra field", .object(copy), "undocumented property 'lat'"))
        copy = station
        copy["id"] = .string("3300")
        mutations.append(("id as string", .object(copy), "expected integer"))
        copy = station
        copy["state"] = .string("Western Australia")
        mutations.append(("state name", .object(copy), "is not one of"))
        copy = station
        if case .array(var prices)? = station["prices"], case .object(var first)? = prices.first {
            first["price"] = .string("181.5")
            prices[0] = .object(first)
            copy["prices"] = .array(prices)
        }
        mutations.append(("price as string", .object(copy), "$.data.prices[0].price: expected number"))
        for (label, mutated, expected) in mutations {
            envelope["data"] = mutated
            let problems = spec.validator.validate(.object(envelope), against: schema)
            #expect(problems.contains { $0.contains(expected) }, "\(label): \(problems)")
        }
        station["postcode"] = .null
        envelope["data"] = .object(station)
        envelope["meta"] = nil
        let problems = spec.validator.validate(.object(envelope), against: schema)
        #expect(problems == ["$: missing required property 'meta'"], "a null postcode is fine, a missing meta is not: \(problems)")
    }

    /// The response check fails on what the contract forbids: undocumented status or media type, a missing
    /// required header, a body where none is documented, and a body of the wrong shape.
    @Test func theResponseCheckCatchesContractBreaks() throws {
        let spec = try OpenAPISpec.load()
        let operation = try #require(spec.operation("get", "/v1/stations/{id}"))
        let good = ObservedResponse(try AppTestSupport.sharedSampleApp().test(.GET, "/v1/stations/3300"))
        #expect(spec.problems(with: good, for: operation) == [])

        var teapot = good
        teapot.status = 418
        #expect(spec.problems(with: teapot, for: operation).contains { $0.contains("status 418 is not documented") })

        var text = good
        text.headers = good.headers.map { $0.name == "Content-Type" ? ($0.name, "text/plain") : $0 }
        #expect(spec.problems(with: text, for: operation).contains { $0.contains("Content-Type text/plain is not one of") })

        var noETag = good
        noETag.headers = good.headers.filter { $0.name != "ETag" }
        #expect(spec.problems(with: noETag, for: operation).contains { $0.contains("missing required header ETag") })

        var notModifiedWithBody = good
        notModifiedWithBody.status = 304
        #expect(spec.problems(with: notModifiedWithBody, for: operation).contains { $0.contains("no body is documented") })

        var wrongShape = good
        wrongShape.body = Array(#"{"data": [], "meta": {"as_of": null, "source": "sample"}}"#.utf8)
        #expect(spec.problems(with: wrongShape, for: operation).contains { $0.contains("$.data: expected object, got array") })

        var broken = good
        broken.body = Array(#"{"data": {"#.utf8)
        #expect(spec.problems(with: broken, for: operation).contains { $0.contains("not valid JSON") })
    }
}
