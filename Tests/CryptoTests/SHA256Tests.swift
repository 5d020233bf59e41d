import Testing
import Crypto

/// SHA-256 against the examples published with FIPS 180-4 (NIST's "SHA256.pdf" and the short/long message cases).
struct SHA256Tests {
    @Test func theOneBlockMessageABCHashesToTheFIPSExample() {
        #expect(Hex.encode(SHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func theTwoBlock448BitMessageHashesToTheFIPSExample() {
        let message = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
        #expect(Hex.encode(SHA256.hash(Array(message.utf8))) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func the896BitMessageHashesToTheFIPSExample() {
        let message = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(Hex.encode(SHA256.hash(Array(message.utf8))) == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func oneMillionLetterAHashesToTheFIPSExample() {
        let message = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
        #expect(Hex.encode(SHA256.hash(message)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func theEmptyMessageHashesToTheKnownDigest() {
        #expect(Hex.encode(SHA256.hash([UInt8]())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    /// The padding boundary: 55 bytes fit the length in one block, 56 need a second; 64 fill a block exactly.
    @Test func lengthsAroundThePaddingBoundaryMatchTheKnownDigests() {
        let cases: [(Int, String)] = [
            (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
            (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
            (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        ]
        for (count, digest) in cases {
            #expect(Hex.encode(SHA256.hash([UInt8](repeating: UInt8(ascii: "a"), count: count))) == digest, "length \(count)")
        }
    }

    @Test func feedingInPiecesGivesTheSameDigestAsAllAtOnce() {
        let message = Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)
        for split in [0, 1, 55, 56] {
            var hasher = SHA256Hasher()
            hasher.update(message[..<split])
            hasher.update(message[split...].lazy.map { $0 })
            #expect(hasher.finalize() == SHA256.hash(message), "split at \(split)")
        }
    }
}
