import Foundation
import HTTP

/// A JSON object body read as query parameters: `{"fuel": "U91", "limit": 20, "open_now": true}` is
/// `fuel=U91&limit=20&open_now=true`, so an endpoint that also takes a body (a route too long for a request line)
/// declares its parameters once and checks them the same way: an unknown field is the unknown-parameter 400.
/// Each field holds a string, a number or a boolean; a list is a string (`"U91,E10"`) or an array of them. A field
/// named in `objects` holds one object of such values instead, read as `name.key` parameters
/// (`{"quiet_hours": {"from": "22:00"}}` is `quiet_hours.from=22:00`). A field named in `types` must hold that JSON
/// type (an app's body, whose schema says `"push_token": string`, is not a query string moved into a body).
enum JSONParameters {
    static let mediaType = "application/json"

    /// The JSON type a field named in `types` must have.
    enum FieldType: Sendable {
        case string
        case number
        /// An array of numbers.
        case numbers

        var described: String {
            switch self {
            case .string: "a string"
            case .number: "a number"
            case .numbers: "an array of numbers"
            }
        }
    }

    static func query(of request: Request, maxBytes: Int, objects: Set<String> = [], types: [String: FieldType] = [:]) throws -> URLQuery {
        try admit(request, maxBytes: maxBytes)
        let object: [String: Field]
        do {
            object = try JSONDecoder().decode([String: Field].self, from: Data(request.body))
        } catch let DecodingError.typeMismatch(_, context) where !context.codingPath.isEmpty {
            throw Abort(.badRequest, reason: "\(context.codingPath[0].stringValue) must be a string, a number, a boolean or a list of them")
        } catch let DecodingError.valueNotFound(_, context) where !context.codingPath.isEmpty {
            throw Abort(.badRequest, reason: "\(context.codingPath[0].stringValue) must not be null")
        } catch {
            throw Abort(.badRequest, reason: types.isEmpty
                ? "the body must be a JSON object of parameters, e.g. {\"polyline\": \"...\", \"fuel\": \"U91\"}"
                : "the body must be a JSON object of the fields \(types.keys.sorted().joined(separator: ", "))")
        }
        for name in object.keys.sorted() {
            if let type = types[name], !object[name]!.has(type) {
                throw Abort(.badRequest, reason: "\(name) must be \(type.described)")
            }
        }
        // In a stable order (JSON objects have none), so errors name the same field every time.
        var items: [(name: String, value: String)] = []
        for name in object.keys.sorted() {
            switch (object[name]!, objects.contains(name)) {
            case (.object(let members), true):
                items += members.keys.sorted().map { ("\(name).\($0)", members[$0]!) }
            case (.object, false):
                throw Abort(.badRequest, reason: "\(name) must be a string, a number, a boolean or a list of them")
            case (_, true):
                throw Abort(.badRequest, reason: "\(name) must be a JSON object")
            case (let field, false):
                items.append((name, field.text))
            }
        }
        return URLQuery(items: items)
    }

    /// The checks made before a body is read: a JSON media type (else 415) and at most `maxBytes` (else 413).
    static func admit(_ request: Request, maxBytes: Int) throws {
        let type = request.headers.first(name: "Content-Type")?.lowercased() ?? ""
        guard type.hasPrefix(mediaType) else {
            throw Abort(HTTPStatus(code: 415), reason: "the body must be JSON: send Content-Type: \(mediaType)")
        }
        guard request.body.count <= maxBytes else {
            throw Abort(.payloadTooLarge, reason: "the body takes at most \(maxBytes) bytes, got \(request.body.count)")
        }
    }

    /// One field's value as the text a query string would carry.
    enum Field: Decodable {
        case text(String)
        /// A JSON string (`text` holds numbers and booleans as their text).
        case string(String)
        case number(String)
        case list([Field])
        /// One level only: its members are texts or lists, never objects.
        case object([String: String])

        var text: String {
            switch self {
            case .text(let value), .string(let value), .number(let value): value
            case .list(let values): values.map(\.text).joined(separator: ",")
            case .object: ""
            }
        }

        func has(_ type: FieldType) -> Bool {
            switch (self, type) {
            case (.string, .string), (.number, .number): true
            case (.list(let items), .numbers): items.allSatisfy { if case .number = $0 { true } else { false } }
            default: false
            }
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if let flag = try? container.decode(Bool.self) {
                self = .text(flag ? "true" : "false")
            } else if let text = try? container.decode(String.self) {
                self = .string(text)
            } else if let number = try? container.decode(Double.self) {
                self = .number(Self.text(number))
            } else if var items = try? decoder.unkeyedContainer() {
                var values: [Field] = []
                while !items.isAtEnd {
                    let item = try items.decode(Field.self)
                    switch item {
                    case .text, .string, .number: values.append(item)
                    case .list, .object:
                        throw DecodingError.typeMismatch(Field.self, .init(codingPath: decoder.codingPath, debugDescription: "nested list"))
                    }
                }
                self = .list(values)
            } else if let members = try? decoder.container(keyedBy: MemberKey.self) {
                var texts: [String: String] = [:]
                for key in members.allKeys {
                    let member = try members.decode(Field.self, forKey: key)
                    if case .object = member {
                        throw DecodingError.typeMismatch(Field.self, .init(codingPath: decoder.codingPath, debugDescription: "nested object"))
                    }
                    texts[key.stringValue] = member.text
                }
                self = .object(texts)
            } else if container.decodeNil() {
                throw DecodingError.valueNotFound(Field.self, .init(codingPath: decoder.codingPath, debugDescription: "null"))
            } else {
                throw DecodingError.typeMismatch(Field.self, .init(codingPath: decoder.codingPath, debugDescription: "object"))
            }
        }

        struct MemberKey: CodingKey {
            let stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }

        /// Whole numbers without a fraction (`20`, not `20.0`), so `limit` reads as the integer it is.
        static func text(_ number: Double) -> String {
            if number == number.rounded(), abs(number) < 1e15 { return String(Int(number)) }
            return String(number)
        }
    }
}
