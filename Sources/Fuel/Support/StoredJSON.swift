import Foundation

/// The one JSON form Petty stores its own values in (data files, the replication payload, the leader's provider
/// health): dates as seconds since 1970, exact to the bit, and sorted keys, so the same value always gives the same
/// bytes (replication ETags and byte-for-byte checks compare them). The wire contract's JSON is HTTP's `JSONCoding`.
/// Shared: Foundation's coders keep no state between calls and may be used from any thread.
public enum StoredJSON {
    public static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }()

    public static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}
