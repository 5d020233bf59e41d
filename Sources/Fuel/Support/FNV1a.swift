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

    /// A word per step, not FNV-1a (so never for what is stored, whose seals must stay readable): for the ETags of
    /// bodies made per request, which hash a route's kilobytes and a dozen numbers per station, where byte steps
    /// cost more than writing the body. Each step is a bijection of the running value, so two inputs of the same
    /// length that differ in one word never meet.
    @inline(__always)
    public mutating func mix(_ word: UInt64) {
        value = (value ^ word) &* 0x100_0000_01b3
        value ^= value >> 29
    }

    /// `mix` over `bytes`, eight at a time; the last word holds the tail and the length.
    public mutating func mix(_ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset + 8 <= bytes.count {
            mix(UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
            offset += 8
        }
        var tail = UInt64(bytes.count) << 56
        var shift: UInt64 = 0
        while offset < bytes.count {
            tail ^= UInt64(bytes[offset]) << shift
            shift += 8
            offset += 1
        }
        mix(tail)
    }

    /// `"1a2b..."` quoted, as an ETag value: lower-case hex without leading zeros (`String(value, radix: 16)`),
    /// written straight into the string, since every response computed per request makes one.
    public var etag: String { etag(weak: false) }

    /// `W/"1a2b..."`: `etag` marked weak, in one string rather than two joined.
    public var weakETag: String { etag(weak: true) }

    private func etag(weak: Bool) -> String {
        var width = 1
        while width < 16, value >> (4 * width) != 0 { width += 1 }
        let prefix = weak ? 2 : 0
        return String(unsafeUninitializedCapacity: prefix + width + 2) { buffer in
            if weak {
                buffer[0] = 0x57
                buffer[1] = 0x2F
            }
            buffer[prefix] = 0x22
            var rest = value
            for position in stride(from: prefix + width, through: prefix + 1, by: -1) {
                let digit = UInt8(truncatingIfNeeded: rest & 0xF)
                buffer[position] = digit < 10 ? 0x30 + digit : 0x57 + digit
                rest >>= 4
            }
            buffer[prefix + width + 1] = 0x22
            return prefix + width + 2
        }
    }
}
