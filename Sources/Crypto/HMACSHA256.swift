/// HMAC-SHA-256 (RFC 2104 with SHA-256 as H; test vectors in RFC 4231).
public enum HMACSHA256 {
    public static func authenticationCode(for message: some Sequence<UInt8>, key: some Sequence<UInt8>) -> [UInt8] {
        HMACSHA256Key(key).authenticationCode(for: message)
    }
}

/// A key with its padded inner and outer blocks already hashed, for computing many codes under one key
/// (PBKDF2 computes thousands).
struct HMACSHA256Key {
    private let inner: SHA256Hasher
    private let outer: SHA256Hasher

    init(_ key: some Sequence<UInt8>) {
        var keyBlock = Array(key)
        if keyBlock.count > SHA256.blockLength { keyBlock = SHA256.hash(keyBlock) }
        keyBlock += [UInt8](repeating: 0, count: SHA256.blockLength - keyBlock.count)
        var inner = SHA256Hasher()
        inner.update(keyBlock.map { $0 ^ 0x36 })
        var outer = SHA256Hasher()
        outer.update(keyBlock.map { $0 ^ 0x5c })
        self.inner = inner
        self.outer = outer
    }

    func authenticationCode(for message: some Sequence<UInt8>) -> [UInt8] {
        var inner = self.inner
        inner.update(message)
        var outer = self.outer
        outer.update(inner.finalize())
        return outer.finalize()
    }
}
