/// SHA-256 (FIPS 180-4 §6.2), pure Swift.
public enum SHA256 {
    public static let digestLength = 32
    public static let blockLength = 64

    public static func hash<D: Sequence>(_ data: D) -> [UInt8] where D.Element == UInt8 {
        var hasher = SHA256Hasher()
        hasher.update(data)
        return hasher.finalize()
    }
}

/// The incremental form: feed bytes in pieces, then finalize once.
public struct SHA256Hasher: Sendable {
    private var state: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
    private var block = [UInt8](repeating: 0, count: SHA256.blockLength)
    private var blockCount = 0
    /// Bytes already compressed (whole blocks).
    private var compressedLength: UInt64 = 0

    public init() {}

    public mutating func update<D: Sequence>(_ data: D) where D.Element == UInt8 {
        let done: Void? = data.withContiguousStorageIfAvailable { update(buffer: $0) }
        if done != nil { return }
        for byte in data { append(byte) }
    }

    private mutating func update(buffer: UnsafeBufferPointer<UInt8>) {
        for byte in buffer { append(byte) }
    }

    @inline(__always)
    private mutating func append(_ byte: UInt8) {
        block[blockCount] = byte
        blockCount += 1
        if blockCount == SHA256.blockLength {
            compress()
            compressedLength &+= UInt64(SHA256.blockLength)
            blockCount = 0
        }
    }

    /// The digest (FIPS 180-4 §5.1.1 padding: 0x80, zeros, the message length in bits as a big-endian UInt64).
    public consuming func finalize() -> [UInt8] {
        let bitLength = (compressedLength &+ UInt64(blockCount)) &* 8
        block[blockCount] = 0x80
        blockCount += 1
        if blockCount > 56 {
            for index in blockCount..<SHA256.blockLength { block[index] = 0 }
            compress()
            blockCount = 0
        }
        for index in blockCount..<56 { block[index] = 0 }
        for index in 0..<8 { block[56 + index] = UInt8(truncatingIfNeeded: bitLength >> UInt64(56 - 8 * index)) }
        compress()
        var digest = [UInt8]()
        digest.reserveCapacity(SHA256.digestLength)
        for word in state {
            digest.append(UInt8(truncatingIfNeeded: word >> 24))
            digest.append(UInt8(truncatingIfNeeded: word >> 16))
            digest.append(UInt8(truncatingIfNeeded: word >> 8))
            digest.append(UInt8(truncatingIfNeeded: word))
        }
        return digest
    }

    /// One block through the compression function (FIPS 180-4 §6.2.2).
    private mutating func compress() {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            block.withUnsafeBufferPointer { bytes in
                for t in 0..<16 {
                    w[t] = UInt32(bytes[4 * t]) << 24 | UInt32(bytes[4 * t + 1]) << 16
                        | UInt32(bytes[4 * t + 2]) << 8 | UInt32(bytes[4 * t + 3])
                }
            }
            for t in 16..<64 {
                let s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3)
                let s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10)
                w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
            }
            state.withUnsafeMutableBufferPointer { state in
                var a = state[0], b = state[1], c = state[2], d = state[3]
                var e = state[4], f = state[5], g = state[6], h = state[7]
                SHA256Hasher.k.withUnsafeBufferPointer { k in
                    for t in 0..<64 {
                        let sum1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                        let choice = (e & f) ^ (~e & g)
                        let t1 = h &+ sum1 &+ choice &+ k[t] &+ w[t]
                        let sum0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = sum0 &+ majority
                        h = g; g = f; f = e; e = d &+ t1
                        d = c; c = b; b = a; a = t1 &+ t2
                    }
                }
                state[0] &+= a; state[1] &+= b; state[2] &+= c; state[3] &+= d
                state[4] &+= e; state[5] &+= f; state[6] &+= g; state[7] &+= h
            }
        }
    }


    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]
}

@inline(__always)
private func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
