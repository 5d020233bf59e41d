import Foundation

/// Anything a handler may return.
public protocol ResponseEncodable: SendableMetatype {
    func encodeResponse(for request: Request) throws -> Response
}

extension Response: ResponseEncodable {
    public func encodeResponse(for request: Request) throws -> Response { self }
}

extension String: ResponseEncodable {
    public func encodeResponse(for request: Request) throws -> Response { Response(text: self) }
}

extension HTTPStatus: ResponseEncodable {
    public func encodeResponse(for request: Request) throws -> Response { Response(status: self) }
}

/// Codable values encoded as JSON with snake_case keys and ISO 8601 dates.
public protocol Content: Codable, ResponseEncodable, Sendable {}

extension Content {
    public func encodeResponse(for request: Request) throws -> Response {
        Response(contentType: "application/json; charset=utf-8", body: try JSONCoding.encode(self))
    }
}

/// The one JSON configuration of the framework (the wire's): snake_case keys, ISO 8601 dates, sorted keys.
/// Shared: Foundation's coders keep no state between calls and may be used from any thread.
public enum JSONCoding {
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        Array(try encoder.encode(value))
    }

    public static func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws -> T {
        try decoder.decode(type, from: Data(bytes))
    }

    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }()
}
