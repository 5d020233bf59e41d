import Foundation
import HTTP

// Test-only tooling for the OpenAPI contract tests: a strict JSON reader that keeps what JSONSerialization
// loses (integer vs decimal literals, booleans vs numbers, duplicate keys), a validator for the JSON Schema
// subset `Public/openapi.json` uses, and helpers to read the spec and check responses against it.

// MARK: - JSON values

/// A parsed JSON value. Numbers keep their literal text so `1` (integer) and `1.0` (number) stay apart.
enum JSONValue: Sendable, Equatable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(Double, text: String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case let (.bool(a), .bool(b)): a == b
        case let (.number(a, _), .number(b, _)): a == b
        case let (.string(a), .string(b)): a == b
        case let (.array(a), .array(b)): a == b
        case let (.object(a), .object(b)): a == b
        default: false
        }
    }

    /// True for a number literal without fraction or exponent (`42`, `-7`), as JSON encoders write integers.
    var isIntegerLiteral: Bool {
        guard case .number(_, let text) = self else { return false }
        return !text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" })
    }

    subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    var doubleValue: Double? { if case .number(let d, _) = self { d } else { nil } }
    var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    var objectValue: [String: JSONValue]? { if case .object(let o) = self { o } else { nil } }

    var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: isIntegerLiteral ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// Compact JSON text (object keys sorted), for messages and for query values.
    var description: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(_, let text): return text
        case .string(let s):
            var bytes: [UInt8] = [0x22]
            JSONEscaping.append(s, to: &bytes)
            bytes.append(0x22)
            return String(decoding: bytes, as: UTF8.self)
        case .array(let items): return "[" + items.map(\.description).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.keys.sorted().map { JSONValue.string($0).description + ":" + members[$0]!.description }.joined(separator: ",") + "}"
        }
    }
}

// MARK: - Strict parser

struct JSONParseError: Error, CustomStringConvertible {
    let offset: Int
    let message: String
    var description: String { "invalid JSON at byte \(offset): \(message)" }
}

/// RFC 8259, strictly: one value, no trailing commas, no comments, no duplicate keys, nothing after the value.
struct JSONParser {
    private let bytes: [UInt8]
    private var index = 0
    private var depth = 0

    static func parse(_ bytes: [UInt8]) throws -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw parser.error("unexpected content after the value") }
        return value
    }

    static func parse(_ text: String) throws -> JSONValue { try parse(Array(text.utf8)) }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private func error(_ message: String) -> JSONParseError { JSONParseError(offset: index, message: message) }

    private mutating func skipWhitespace() {
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    private mutating func parseValue() throws -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw error("unexpected character '\(Character(UnicodeScalar(bytes[index])))'")
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let expected = word.withUTF8Buffer { Array($0) }
        guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
            throw error("bad literal")
        }
        index += expected.count
    }

    private mutating func parseObject() throws -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        var members: [String: JSONValue] = [:]
        guard try opens(closedBy: "}") else { return .object(members) }
        repeat {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw error("expected a key") }
            let key = try parseString()
            guard members[key] == nil else { throw error("duplicate key \"\(key)\"") }
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw error("expected ':'") }
            index += 1
            skipWhitespace()
            members[key] = try parseValue()
        } while try continues(closedBy: "}", in: "object")
        return .object(members)
    }

    private mutating func parseArray() throws -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        var items: [JSONValue] = []
        guard try opens(closedBy: "]") else { return .array(items) }
        repeat {
            skipWhitespace()
            items.append(try parseValue())
        } while try continues(closedBy: "]", in: "array")
        return .array(items)
    }

    /// Steps over an object's or array's opening byte; false when `close` follows at once (it is empty).
    private mutating func opens(closedBy close: Unicode.Scalar) throws -> Bool {
        guard depth < 256 else { throw error("nesting too deep") }
        index += 1
        skipWhitespace()
        guard index < bytes.count, bytes[index] == UInt8(ascii: close) else { return true }
        index += 1
        return false
    }

    /// After an element: true past a comma (another follows), false past `close`.
    private mutating func continues(closedBy close: Unicode.Scalar, in what: String) throws -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw error("unterminated \(what)") }
        if bytes[index] == UInt8(ascii: ",") { index += 1; return true }
        if bytes[index] == UInt8(ascii: close) { index += 1; return false }
        throw error("expected ',' or '\(close)'")
    }

    private mutating func parseString() throws -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var run: [UInt8] = []
        func flush() {
            if !run.isEmpty { scalars.append(contentsOf: String(decoding: run, as: UTF8.self).unicodeScalars); run.removeAll() }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                flush()
                return String(scalars)
            case UInt8(ascii: "\\"):
                flush()
                index += 1
                guard index < bytes.count else { throw error("unterminated escape") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("lone high surrogate")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("bad low surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(code) {
                        throw error("lone low surrogate")
                    }
                    guard let scalar = UnicodeScalar(code) else { throw error("bad \\u escape") }
                    scalars.append(scalar)
                default: throw error("bad escape")
                }
            case 0..<0x20:
                throw error("control character in string")
            default:
                run.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    private mutating func hex4() throws -> UInt32 {
        guard index + 4 <= bytes.count, let value = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else {
            throw error("bad \\u escape")
        }
        index += 4
        return value
    }

    private mutating func parseNumber() throws -> JSONValue {
        let start = index
        func digits() -> Int {
            let from = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - from
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("bad number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw error("bad number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("bad fraction") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("bad exponent") }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw error("bad number \(text)") }
        return .number(value, text: text)
    }
}

// MARK: - JSON Schema subset

/// Validates instances against the JSON Schema (2020-12) subset the spec uses, resolving `$ref`s against
/// the whole spec document. Stricter than the standard in two deliberate ways: `integer` means an integer
/// *literal* (`1.0` is not one), and any keyword it does not implement is reported instead of ignored,
/// so the spec cannot silently rely on a rule nobody checks.
struct SchemaValidator {
    let document: JSONValue

    static let assertions: Set<String> = [
        "$ref", "type", "enum", "const", "properties", "required", "additionalProperties", "items",
        "minItems", "maxItems", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "minLength", "maxLength", "pattern", "format", "oneOf", "anyOf", "allOf",
    ]
    static let annotations: Set<String> = [
        "description", "title", "example", "examples", "default", "deprecated", "readOnly", "writeOnly", "$comment",
    ]
    static let formats: Set<String> = ["date-time", "date"]

    /// `#/components/schemas/Station` → the schema.
    func resolve(_ reference: String) -> JSONValue? {
        guard reference.hasPrefix("#/") else { return nil }
        var node: JSONValue? = document
        for token in reference.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false) {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            node = node?[key]
        }
        return node
    }

    /// Every problem found, each prefixed with the instance path (`$.data[0].price`). Empty when valid.
    func validate(_ instance: JSONValue, against schema: JSONValue, at path: String = "$") -> [String] {
        var depth = 0
        return check(instance, schema, path, &depth)
    }

    private func check(_ instance: JSONValue, _ schema: JSONValue, _ path: String, _ depth: inout Int) -> [String] {
        depth += 1
        defer { depth -= 1 }
        guard depth < 64 else { return ["\(path): $ref recursion too deep"] }
        if case .bool(let allowed) = schema { return allowed ? [] : ["\(path): no value is allowed here"] }
        guard let keywords = schema.objectValue else { return ["\(path): schema is not an object or boolean: \(schema)"] }
        var problems: [String] = []

        for key in keywords.keys.sorted() where !Self.assertions.contains(key) && !Self.annotations.contains(key) {
            problems.append("\(path): unsupported schema keyword '\(key)'")
        }

        if let reference = keywords["$ref"] {
            if let target = reference.stringValue.flatMap(resolve) {
                problems += check(instance, target, path, &depth)
            } else {
                problems.append("\(path): unresolvable $ref \(reference)")
            }
        }

        if let type = keywords["type"] {
            let allowed = type.arrayValue?.compactMap(\.stringValue) ?? type.stringValue.map { [$0] } ?? []
            if allowed.isEmpty { problems.append("\(path): bad 'type' \(type)") }
            if !allowed.contains(where: { Self.matches(instance, type: $0) }) {
                problems.append("\(path): expected \(allowed.joined(separator: " or ")), got \(instance.typeName) \(Self.short(instance))")
                return problems // the remaining keywords would only repeat the mismatch
            }
        }

        if let options = keywords["enum"]?.arrayValue, !options.contains(instance) {
            problems.append("\(path): \(Self.short(instance)) is not one of \(options.map(\.description).joined(separator: ", "))")
        }
        if let constant = keywords["const"], constant != instance {
            problems.append("\(path): expected \(constant), got \(Self.short(instance))")
        }

        switch instance {
        case .object(let members):
            let properties = keywords["properties"]?.objectValue ?? [:]
            for name in keywords["required"]?.arrayValue?.compactMap(\.stringValue) ?? [] where members[name] == nil {
                problems.append("\(path): missing required property '\(name)'")
            }
            for name in members.keys.sorted() {
                let member = members[name]!
                let memberPath = "\(path).\(name)"
                if let propertySchema = properties[name] {
                    problems += check(member, propertySchema, memberPath, &depth)
                } else if let additional = keywords["additionalProperties"] {
                    if additional == .bool(false) {
                        problems.append("\(path): undocumented property '\(name)'")
                    } else {
                        problems += check(member, additional, memberPath, &depth)
                    }
                }
            }
        case .array(let items):
            if let itemSchema = keywords["items"] {
                for (offset, item) in items.enumerated() {
                    problems += check(item, itemSchema, "\(path)[\(offset)]", &depth)
                }
            }
            if let minimum = keywords["minItems"]?.doubleValue, Double(items.count) < minimum {
                problems.append("\(path): \(items.count) items, fewer than minItems \(Int(minimum))")
            }
            if let maximum = keywords["maxItems"]?.doubleValue, Double(items.count) > maximum {
                problems.append("\(path): \(items.count) items, more than maxItems \(Int(maximum))")
            }
        case .number(let value, _):
            if let minimum = keywords["minimum"]?.doubleValue, value < minimum {
                problems.append("\(path): \(value) is below minimum \(minimum)")
            }
            if let maximum = keywords["maximum"]?.doubleValue, value > maximum {
                problems.append("\(path): \(value) is above maximum \(maximum)")
            }
            if let minimum = keywords["exclusiveMinimum"]?.doubleValue, value <= minimum {
                problems.append("\(path): \(value) is not above exclusiveMinimum \(minimum)")
            }
            if let maximum = keywords["exclusiveMaximum"]?.doubleValue, value >= maximum {
                problems.append("\(path): \(value) is not below exclusiveMaximum \(maximum)")
            }
        case .string(let text):
            let length = text.unicodeScalars.count
            if let minimum = keywords["minLength"]?.doubleValue, Double(length) < minimum {
                problems.append("\(path): string shorter than minLength \(Int(minimum))")
            }
            if let maximum = keywords["maxLength"]?.doubleValue, Double(length) > maximum {
                problems.append("\(path): string longer than maxLength \(Int(maximum))")
            }
            if let pattern = keywords["pattern"]?.stringValue {
                if let regex = CompiledPatterns.regex(pattern) {
                    if regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) == nil {
                        problems.append("\(path): \(Self.short(instance)) does not match pattern \(pattern)")
                    }
                } else {
                    problems.append("\(path): bad pattern \(pattern)")
                }
            }
            if let format = keywords["format"]?.stringValue {
                if !Self.formats.contains(format) {
                    problems.append("\(path): unsupported format '\(format)'")
                } else if !Self.matches(text, format: format) {
                    problems.append("\(path): \(Self.short(instance)) is not a valid \(format)")
                }
            }
        default:
            break
        }

        if let branches = keywords["allOf"]?.arrayValue {
            for branch in branches { problems += check(instance, branch, path, &depth) }
        }
        if let branches = keywords["anyOf"]?.arrayValue {
            let results = branches.map { check(instance, $0, path, &depth) }
            if !results.contains(where: \.isEmpty) {
                problems.append("\(path): matches none of anyOf: \(results.map { $0.first ?? "" }.joined(separator: " | "))")
            }
        }
        if let branches = keywords["oneOf"]?.arrayValue {
            let results = branches.map { check(instance, $0, path, &depth) }
            let passing = results.filter(\.isEmpty).count
            if passing != 1 {
                problems.append("\(path): matches \(passing) of oneOf (exactly 1 required)")
            }
        }
        return problems
    }

    static func matches(_ instance: JSONValue, type: String) -> Bool {
        switch (type, instance) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array), ("object", .object):
            true
        case ("integer", .number):
            instance.isIntegerLiteral
        default:
            false
        }
    }

    static func matches(_ text: String, format: String) -> Bool {
        let pattern = switch format {
        case "date": #"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$"#
        default: #"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:([0-5]\d|60)(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$"#
        }
        let regex = CompiledPatterns.regex(pattern)!
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    static func short(_ value: JSONValue) -> String {
        let text = value.description
        return text.count > 60 ? String(text.prefix(57)) + "..." : text
    }

    /// Schema keywords the validator would not check, anywhere under `schema` (refs not followed).
    static func unsupportedKeywords(in schema: JSONValue, at path: String) -> [String] {
        guard let keywords = schema.objectValue else { return [] }
        var found: [String] = []
        for (key, value) in keywords.sorted(by: { $0.key < $1.key }) {
            if !assertions.contains(key) && !annotations.contains(key) { found.append("\(path)/\(key)") }
            switch key {
            case "properties":
                for (name, sub) in value.objectValue ?? [:] { found += unsupportedKeywords(in: sub, at: "\(path)/properties/\(name)") }
            case "items", "additionalProperties":
                found += unsupportedKeywords(in: value, at: "\(path)/\(key)")
            case "oneOf", "anyOf", "allOf":
                for (offset, sub) in (value.arrayValue ?? []).enumerated() { found += unsupportedKeywords(in: sub, at: "\(path)/\(key)/\(offset)") }
            case "format":
                if let format = value.stringValue, !formats.contains(format) { found.append("\(path)/format \(format)") }
            default: break
            }
        }
        return found
    }
}

// MARK: - The spec

/// `Public/openapi.json`, read with the strict parser.
struct OpenAPISpec: Sendable {
    let document: JSONValue

    struct Operation: Sendable, CustomStringConvertible {
        let method: String
        let path: String
        let operation: JSONValue
        var description: String { "\(method.uppercased()) \(path)" }
    }

    static let methods = ["get", "put", "post", "delete", "options", "head", "patch", "trace"]

    static var fileURL: URL { URL(fileURLWithPath: AppTestSupport.publicDirectory).appendingPathComponent("openapi.json") }

    static func load() throws -> OpenAPISpec {
        let data = try Data(contentsOf: fileURL)
        return OpenAPISpec(document: try JSONParser.parse(Array(data)))
    }

    var validator: SchemaValidator { SchemaValidator(document: document) }

    var operations: [Operation] {
        let paths = document["paths"]?.objectValue ?? [:]
        return paths.keys.sorted().flatMap { path in
            Self.methods.compactMap { method in
                paths[path]?[method].map { Operation(method: method, path: path, operation: $0) }
            }
        }
    }

    func operation(_ method: String, _ path: String) -> Operation? {
        document["paths"]?[path]?[method].map { Operation(method: method, path: path, operation: $0) }
    }

    /// Follows a `$ref` (any depth) to the object it names.
    func dereference(_ value: JSONValue) -> JSONValue? {
        var value = value
        var hops = 0
        while let reference = value["$ref"]?.stringValue {
            guard hops < 16, let target = validator.resolve(reference) else { return nil }
            value = target
            hops += 1
        }
        return value
    }

    /// The operation's parameters, path-level ones included, references resolved.
    func parameters(of operation: Operation) -> [JSONValue] {
        let pathLevel = document["paths"]?[operation.path]?["parameters"]?.arrayValue ?? []
        let own = operation.operation["parameters"]?.arrayValue ?? []
        return (pathLevel + own).compactMap(dereference)
    }

    func documentedResponse(of operation: Operation, status: Int) -> JSONValue? {
        guard let responses = operation.operation["responses"] else { return nil }
        let documented = responses["\(status)"] ?? responses["\(status / 100)XX"] ?? responses["default"]
        return documented.flatMap(dereference)
    }

    /// Every `$ref` string in the document, with where it sits.
    func references() -> [(at: String, target: String)] {
        var found: [(String, String)] = []
        func walk(_ value: JSONValue, _ path: String) {
            switch value {
            case .object(let members):
                for (key, member) in members {
                    if key == "$ref", let target = member.stringValue { found.append((path, target)) } else { walk(member, path + "/" + key) }
                }
            case .array(let items):
                for (offset, item) in items.enumerated() { walk(item, "\(path)/\(offset)") }
            default: break
            }
        }
        walk(document, "#")
        return found
    }

    /// The documented path template that `concretePath` (no query) falls under: `/v1/stations/42` → `/v1/stations/{id}`.
    func template(matching concretePath: String) -> String? {
        let segments = concretePath.split(separator: "/", omittingEmptySubsequences: false)
        return (document["paths"]?.objectValue ?? [:]).keys.sorted().first { template in
            let parts = template.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == segments.count else { return false }
            return zip(parts, segments).allSatisfy { part, segment in
                (part.hasPrefix("{") && part.hasSuffix("}") && !segment.isEmpty) || part == segment
            }
        }
    }

    // MARK: Building requests from the documented examples

    /// A query parameter value as the spec serialises it: arrays as `style: form, explode: false` (comma-joined).
    static func queryText(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .array(let items): items.map(queryText).joined(separator: ",")
        default: value.description
        }
    }

    static func percentEncoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~,:")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    /// `path?query` for `operation`, with path parameters from their examples and the given query values.
    func target(_ operation: Operation, query: [(String, String)], pathValues: [String: String] = [:]) -> String {
        var path = operation.path
        for parameter in parameters(of: operation) where parameter["in"]?.stringValue == "path" {
            guard let name = parameter["name"]?.stringValue else { continue }
            let value = pathValues[name] ?? parameter["example"].map(Self.queryText) ?? ""
            path = path.replacingOccurrences(of: "{\(name)}", with: Self.percentEncoded(value))
        }
        guard !query.isEmpty else { return path }
        return path + "?" + query.map { "\(Self.percentEncoded($0.0))=\(Self.percentEncoded($0.1))" }.joined(separator: "&")
    }

    /// Every documented query parameter at its example value, except those that exclude others
    /// (`x-petty-excludes`, e.g. `after` needs the id order that `sort` changes): they are probed on their own.
    func exampleQuery(_ operation: Operation) -> [(String, String)] {
        parameters(of: operation).compactMap { parameter in
            guard parameter["in"]?.stringValue == "query", let name = parameter["name"]?.stringValue,
                  parameter["x-petty-excludes"] == nil, let example = parameter["example"] else { return nil }
            return (name, Self.queryText(example))
        }
    }
}

// MARK: - Checking responses

/// What the contract checks see of a response (built from `TestResponse`, or by hand in the validator tests).
struct ObservedResponse {
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]

    init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    init(_ response: TestResponse) {
        self.init(status: response.status.code, headers: response.headers.map { ($0.name, $0.value) }, body: response.body)
    }

    func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// `application/json` from `application/json; charset=utf-8`.
    var mediaType: String? {
        header("Content-Type").map { $0.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased() }
    }

    var bodyText: String { String(decoding: body, as: UTF8.self) }
}

extension OpenAPISpec {
    /// Everything about `response` that disagrees with the documented response for its status:
    /// undocumented status, undocumented media type, missing required headers, a body where none is
    /// documented, and JSON bodies that do not validate against the documented schema.
    func problems(with response: ObservedResponse, for operation: Operation, label: String? = nil) -> [String] {
        let label = label ?? operation.description
        guard let documented = documentedResponse(of: operation, status: response.status) else {
            return ["\(label): status \(response.status) is not documented (body: \(response.bodyText.prefix(200)))"]
        }
        var problems: [String] = []
        for (name, header) in documented["headers"]?.objectValue ?? [:] {
            let resolved = dereference(header)
            guard resolved?["required"]?.boolValue == true else { continue }
            guard let value = response.header(name) else {
                problems.append("\(label) \(response.status): missing required header \(name)")
                continue
            }
            if let schema = resolved?["schema"] {
                problems += validator.validate(.string(value), against: schema, at: "header \(name)").map { "\(label) \(response.status): \($0)" }
            }
        }
        guard let content = documented["content"]?.objectValue, !content.isEmpty else {
            if !response.body.isEmpty {
                problems.append("\(label) \(response.status): no body is documented but one was sent: \(response.bodyText.prefix(120))")
            }
            return problems
        }
        guard let mediaType = response.mediaType, let media = content[mediaType] else {
            problems.append("\(label) \(response.status): Content-Type \(response.header("Content-Type") ?? "(none)") is not one of the documented \(content.keys.sorted())")
            return problems
        }
        guard let schema = media["schema"] else { return problems }
        if mediaType == "application/json" || mediaType.hasSuffix("+json") {
            do {
                let body = try JSONParser.parse(response.body)
                problems += validator.validate(body, against: schema).map { "\(label) \(response.status): \($0)" }
            } catch {
                problems.append("\(label) \(response.status): body is not valid JSON: \(error); \(response.bodyText.prefix(200))")
            }
        } else {
            problems += validator.validate(.string(response.bodyText), against: schema).map { "\(label) \(response.status): \($0)" }
        }
        return problems
    }
}
