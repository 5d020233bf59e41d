import Foundation

/// Decodes a provider's JSON envelope, mapping every failure to a typed `AdapterError`.
enum JSONPayload {
    /// `codeKey` names a field decoded as `FlexibleString`; if its first value in the body is a number, numbers
    /// are tried first for every `FlexibleString` (see there for why that matters).
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, source: String, codeKey: String? = nil) throws(AdapterError) -> T {
        guard data.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else {
            throw .emptyPayload(source: source)
        }
        let decoder = JSONDecoder()
        if let codeKey, firstValueIsNumber(of: codeKey, in: data) { decoder.userInfo[.numbersFirst] = true }
        do {
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw .decodingFailed(source: source, context: error.summary)
        } catch {
            throw .decodingFailed(source: source, context: String(describing: error))
        }
    }
}

extension JSONPayload {
    /// Whether the first `"key":` in the body is followed by a number (after optional whitespace).
    /// A plain byte scan: `Data.firstRange(of:)` is generic and takes ~60 ms to cross 1 MB of NSW stations.
    static func firstValueIsNumber(of key: String, in data: Data) -> Bool {
        let needle = Array("\"\(key)\"".utf8)
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Bool in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= needle.count else { return false }
            var index = 0
            let lastStart = bytes.count - needle.count
            search: while index <= lastStart {
                if bytes[index] == needle[0] {
                    for offset in 1..<needle.count where bytes[index + offset] != needle[offset] {
                        index += 1
                        continue search
                    }
                    var after = index + needle.count
                    while after < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x3A].contains(bytes[after]) { after += 1 }
                    return after < bytes.count && (bytes[after] == 0x2D || (0x30...0x39).contains(bytes[after]))
                }
                index += 1
            }
            return false
        }
    }
}

extension DecodingError {
    /// One line: what went wrong and where (`typeMismatch at stations.3.code: ...`).
    var summary: String {
        func path(_ context: Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }
            return keys.isEmpty ? "top level" : keys.joined(separator: ".")
        }
        switch self {
        case .typeMismatch(let type, let context): return "type mismatch (\(type)) at \(path(context)): \(context.debugDescription)"
        case .valueNotFound(let type, let context): return "missing value (\(type)) at \(path(context))"
        case .keyNotFound(let key, let context): return "missing key '\(key.stringValue)' at \(path(context))"
        case .dataCorrupted(let context): return "corrupted data at \(path(context)): \(context.debugDescription)"
        @unknown default: return String(describing: self)
        }
    }
}
