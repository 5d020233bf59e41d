/// FNV-1a, 64 bit: cheap content hashes for ETags and the data files' integrity trailer.
public struct FNV1a: Sendable {
    public private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    public init() {}

    public init(value: UInt64) { self.value = value }

    public mutating func combine(_ bytes: [UInt8]) {
        for byte in bytes { combine(byte) }
    }

    public mutating func combine(_ string: String) {
        // Over the contiguous bytes: the UTF-8 view's iterator costs as much again per byte (a query's route is
        // kilobytes, hashed for every along response's ETag).
        var string = string
        string.withUTF8 { bytes in
            for byte in bytes { combine(byte) }
        }
    }

    public mutating func combine(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    public mutating func combine(_ number: UInt64) {
        var n = number
        for _ in 0..<8 {
            combine(UInt8(truncatingIfNeeded: n))
            n >>= 8
        }
    }

    /// `"1a2b..."` quoted, as an ETag value.
    public var etag: String { "\"\(String(value, radix: 16))\"" }
}
