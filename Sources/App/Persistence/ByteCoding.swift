import Foundation

/// The little-endian primitives `SnapshotCodec`, `StationHistoryCodec` and the replication payload are written in.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func double(_ value: Double) { u64(value.bitPattern) }
    mutating func blob(_ value: [UInt8]) {
        u32(UInt32(value.count))
        bytes.append(contentsOf: value)
    }
    mutating func string(_ value: String) { blob(Array(value.utf8)) }
    mutating func optionalString(_ value: String?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        string(value)
    }
    mutating func optionalDate(_ value: Date?) { double(value?.timeIntervalSince1970 ?? .nan) }
}

/// Reads what `ByteWriter` wrote; every read checks the bytes are there, so a truncated file throws, never traps.
struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else { throw SnapshotCodec.Malformed(description: "truncated at byte \(offset)") }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func byte() throws -> UInt8 { try take(1).first! }

    mutating func u32() throws -> UInt32 {
        try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func u64() throws -> UInt64 {
        try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func double() throws -> Double { Double(bitPattern: try u64()) }

    mutating func blob() throws -> ArraySlice<UInt8> { try take(Int(try u32())) }

    mutating func string() throws -> String {
        let raw = try blob()
        guard raw.count <= LoadLimits.maxStringBytes else { throw SnapshotCodec.Malformed(description: "string of \(raw.count) bytes") }
        guard let text = String(validating: raw, as: UTF8.self) else { throw SnapshotCodec.Malformed(description: "invalid UTF-8") }
        return text
    }

    mutating func optionalString() throws -> String? {
        switch try byte() {
        case 0: return nil
        case 1: return try string()
        default: throw SnapshotCodec.Malformed(description: "bad optional flag at byte \(offset - 1)")
        }
    }

    /// NaN means absent; anything else must be a plausible instant.
    mutating func optionalDate() throws -> Date? {
        let value = try double()
        if value.isNaN { return nil }
        try LoadLimits.check(instant: value, "date at byte \(offset - 8)")
        return Date(timeIntervalSince1970: value)
    }
}
