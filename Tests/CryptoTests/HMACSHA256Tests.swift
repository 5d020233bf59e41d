import Testing
import Crypto

/// HMAC-SHA-256 against RFC 4231 §4.2-4.8, test cases 1 to 7.
struct HMACSHA256Tests {
    func mac(key: [UInt8], data: [UInt8]) -> String {
        Hex.encode(HMACSHA256.authenticationCode(for: data, key: key))
    }

    @Test func case1AShortKeyOfElevens() {
        #expect(mac(key: [UInt8](repeating: 0x0b, count: 20), data: Array("Hi There".utf8))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
    }

    @Test func case2AKeyShorterThanTheDigest() {
        #expect(mac(key: Array("Jefe".utf8), data: Array("what do ya want for nothing?".utf8))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func case3CombinedKeyAndDataOf50Bytes() {
        #expect(mac(key: [UInt8](repeating: 0xaa, count: 20), data: [UInt8](repeating: 0xdd, count: 50))
            == "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe")
    }

    @Test func case4ACountingKey() {
        #expect(mac(key: Array(1...25), data: [UInt8](repeating: 0xcd, count: 50))
            == "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b")
    }

    /// RFC 4231 publishes only the first 128 bits of this one: the full code must start with them.
    @Test func case5TruncatedTo128Bits() {
        let full = HMACSHA256.authenticationCode(for: Array("Test With Truncation".utf8), key: [UInt8](repeating: 0x0c, count: 20))
        #expect(full.count == 32)
        #expect(Hex.encode(full.prefix(16)) == "a3b6167473100ee06e0c796c2955552b")
    }

    @Test func case6AKeyLongerThanTheBlockIsHashedFirst() {
        #expect(mac(key: [UInt8](repeating: 0xaa, count: 131), data: Array("Test Using Larger Than Block-Size Key - Hash Key First".utf8))
            == "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54")
    }

    @Test func case7ALongKeyAndLongData() {
        let data = "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."
        #expect(mac(key: [UInt8](repeating: 0xaa, count: 131), data: Array(data.utf8))
            == "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2")
    }

    @Test func aKeyOfExactlyOneBlockIsUsedAsIsNotHashed() {
        let key = [UInt8](repeating: 0x01, count: 64)
        #expect(HMACSHA256.authenticationCode(for: [1, 2, 3], key: key) != HMACSHA256.authenticationCode(for: [1, 2, 3], key: SHA256.hash(key)))
    }
}
