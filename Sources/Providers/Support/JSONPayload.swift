import Foundation

/// Decodes a provider's JSON envelope, mapping every failure to a typed `AdapterError`.
enum JSONPayload {
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, source: String) throws(AdapterError) -> T {
        guard data.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else {
            throw .emptyPayload(source: source)
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw .decodingFailed(source: source, context: error.summary)
        } catch {
            throw .decodingFailed(source: source, context: String(describing: error))
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
