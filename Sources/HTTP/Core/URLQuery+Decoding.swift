/// Typed query decoding, Vapor-style: `let filters = try req.query.decode(StationFilters.self)`.
/// Property names are looked up as written and in snake_case (`radiusKm` reads `radius_km`). Repeated keys
/// fill arrays. A missing required value or one that does not convert is a 400 that names the parameter.
extension URLQuery {
    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        do {
            return try T(from: URLQueryDecoder(query: self, codingPath: []))
        } catch let error as URLQueryDecodingError {
            throw Abort(.badRequest, reason: error.reason)
        } catch let DecodingError.dataCorrupted(context) {
            let name = context.codingPath.last.map { URLQueryDecoder.snakeCase($0.stringValue) } ?? "query"
            let given = context.codingPath.last.flatMap { self[$0.stringValue] ?? self[name] }.map { " '\($0)'" } ?? ""
            throw Abort(.badRequest, reason: "Query parameter '\(name)' has an invalid value\(given)")
        }
    }
}

extension Request {
    /// Shorthand for `req.query.decode(T.self)`.
    public func query<T: Decodable>(as type: T.Type) throws -> T { try query.decode(type) }
}

struct URLQueryDecodingError: Error {
    let reason: String
}

struct URLQueryDecoder: Decoder {
    let query: URLQuery
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(KeyedQueryContainer<Key>(query: query, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        throw URLQueryDecodingError(reason: "the query string cannot be read as a list")
    }

    func singleValueContainer() throws -> SingleValueDecodingContainer {
        throw URLQueryDecodingError(reason: "the query string cannot be read as a single value")
    }

    static func snakeCase(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}

struct KeyedQueryContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let query: URLQuery
    let codingPath: [CodingKey]

    var allKeys: [Key] { query.keys.compactMap { Key(stringValue: $0) } }

    func name(_ key: Key) -> String {
        let snake = URLQueryDecoder.snakeCase(key.stringValue)
        return query.contains(key.stringValue) || !query.contains(snake) ? key.stringValue : snake
    }

    func contains(_ key: Key) -> Bool { query.contains(name(key)) }

    func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let name = name(key)
        let values = query.values(for: name)
        guard let first = values.first else {
            if let optional = T.self as? ExpressibleByNilLiteral.Type { return optional.init(nilLiteral: ()) as! T }
            throw URLQueryDecodingError(reason: "Query parameter '\(name)' is required")
        }
        if let convertible = T.self as? QueryValueConvertible.Type {
            guard let value = convertible.init(queryValue: first) else {
                throw URLQueryDecodingError(reason: "Query parameter '\(name)' must be a valid \(convertible.queryTypeName), got '\(first)'")
            }
            return value as! T
        }
        if let list = T.self as? QueryListConvertible.Type {
            guard let value = list.init(queryValues: values) else {
                throw URLQueryDecodingError(reason: "Query parameter '\(name)' must be a list of \(list.elementTypeName)")
            }
            return value as! T
        }
        return try T(from: SingleQueryValueDecoder(value: first, name: name, codingPath: codingPath + [key]))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        throw URLQueryDecodingError(reason: "Query parameter '\(key.stringValue)' cannot be an object")
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> UnkeyedDecodingContainer {
        throw URLQueryDecodingError(reason: "Query parameter '\(key.stringValue)' cannot be a nested list")
    }

    func superDecoder() throws -> Decoder { URLQueryDecoder(query: query, codingPath: codingPath) }
    func superDecoder(forKey key: Key) throws -> Decoder { URLQueryDecoder(query: query, codingPath: codingPath + [key]) }
}

/// Enums with raw values and other single-value types decode through this.
struct SingleQueryValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: String
    let name: String
    let codingPath: [CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw URLQueryDecodingError(reason: "Query parameter '\(name)' cannot be an object")
    }
    func unkeyedContainer() throws -> UnkeyedDecodingContainer {
        throw URLQueryDecodingError(reason: "Query parameter '\(name)' cannot be a nested list")
    }
    func singleValueContainer() throws -> SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { false }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        if let convertible = T.self as? QueryValueConvertible.Type, let result = convertible.init(queryValue: value) {
            return result as! T
        }
        throw URLQueryDecodingError(reason: "Query parameter '\(name)' has an invalid value '\(value)'")
    }
}

/// Scalars a query value converts to.
protocol QueryValueConvertible {
    init?(queryValue: String)
    static var queryTypeName: String { get }
}

extension String: QueryValueConvertible {
    init?(queryValue: String) { self = queryValue }
    static var queryTypeName: String { "string" }
}

extension Int: QueryValueConvertible {
    init?(queryValue: String) { self.init(queryValue) }
    static var queryTypeName: String { "whole number" }
}

extension Double: QueryValueConvertible {
    init?(queryValue: String) {
        guard let value = Double(queryValue), value.isFinite else { return nil }
        self = value
    }
    static var queryTypeName: String { "number" }
}

extension Bool: QueryValueConvertible {
    init?(queryValue: String) {
        switch queryValue.lowercased() {
        case "true", "1", "yes", "on": self = true
        case "false", "0", "no", "off": self = false
        default: return nil
        }
    }
    static var queryTypeName: String { "boolean (true or false)" }
}

/// Arrays from repeated keys (`id=1&id=2`) or one comma-separated value (`ids=1,2`).
protocol QueryListConvertible {
    init?(queryValues: [String])
    static var elementTypeName: String { get }
}

extension Array: QueryListConvertible where Element: QueryValueConvertible {
    init?(queryValues: [String]) {
        let parts = queryValues.count == 1 ? queryValues[0].split(separator: ",").map(String.init) : queryValues
        var result: [Element] = []
        for part in parts {
            guard let value = Element(queryValue: part) else { return nil }
            result.append(value)
        }
        self = result
    }
    static var elementTypeName: String { Element.queryTypeName }
}
