import Foundation

/// The proto3 JSON mapping etcd's gateway speaks: `bytes` as base64, `int64` as decimal strings, and every field
/// at its zero value (false, 0, "", empty list) left out. Reading must therefore treat a missing field as zero.
enum ProtoJSON {
    typealias Object = [String: Any]

    static func base64(_ text: String) -> String { Data(text.utf8).base64EncodedString() }

    static func base64(_ bytes: [UInt8]) -> String { Data(bytes).base64EncodedString() }

    static func int64String(_ value: Int64) -> String { String(value) }

    /// An int64 field: a string (the mapping), a number (tolerated), or absent (zero).
    static func int64(_ value: Any?) -> Int64 {
        switch value {
        case let text as String: Int64(text) ?? 0
        case let number as NSNumber: number.int64Value
        default: 0
        }
    }

    /// A bool field: absent means false.
    static func bool(_ value: Any?) -> Bool {
        (value as? Bool) ?? (value as? NSNumber)?.boolValue ?? false
    }

    /// A bytes field: absent means empty; invalid base64 is refused.
    static func bytes(_ value: Any?) throws -> [UInt8] {
        guard let text = value as? String else { return [] }
        guard let data = Data(base64Encoded: text) else { throw EtcdError.malformed("invalid base64 in a bytes field") }
        return Array(data)
    }

    static func objects(_ value: Any?) -> [Object] { (value as? [Object]) ?? [] }

    static func encode(_ object: Object) throws -> Data {
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }

    static func decode(_ data: Data) throws -> Object {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? Object else {
            throw EtcdError.malformed("the answer is not a JSON object")
        }
        return object
    }

    /// The exclusive end of the range holding every key that starts with `prefix` (etcd's `range_end` rule).
    static func prefixEnd(_ prefix: String) -> [UInt8] {
        var bytes = Array(prefix.utf8)
        while let last = bytes.last {
            if last < 0xFF {
                bytes[bytes.count - 1] = last + 1
                return bytes
            }
            bytes.removeLast()
        }
        return [0]
    }
}
