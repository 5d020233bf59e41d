/// PBKDF2 (RFC 8018 §5.2) with HMAC-SHA-256 as the pseudorandom function: SCRAM-SHA-256's `Hi()` (RFC 5802 §2.2).
public enum PBKDF2SHA256 {
    /// `iterations` and `length` must be at least 1.
    public static func derive(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) -> [UInt8] {
        precondition(iterations >= 1 && length >= 1, "PBKDF2 needs at least one iteration and one byte")
        var derived = [UInt8]()
        derived.reserveCapacity(length)
        let key = HMACSHA256Key(password)
        var blockIndex: UInt32 = 1
        while derived.count < length {
            let indexBytes = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: blockIndex >> UInt32($0)) }
            var u = key.authenticationCode(for: salt + indexBytes)
            var t = u
            for _ in 1..<iterations {
                u = key.authenticationCode(for: u)
                for index in t.indices { t[index] ^= u[index] }
            }
            derived += t.prefix(length - derived.count)
            blockIndex += 1
        }
        return derived
    }
}
