import Testing
import Crypto

struct BytesTests {
    @Test func equalBytesCompareEqualAndAnyDifferenceOrLengthDoesNot() {
        #expect(constantTimeEquals([1, 2, 3], [1, 2, 3]))
        #expect(constantTimeEquals([], []))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2, 4]))
        #expect(!constantTimeEquals([0, 2, 3], [1, 2, 3]))
        #expect(!constantTimeEquals([1, 2, 3], [1, 2]))
    }

    /// RFC 4648 §10's vectors.
    @Test func base64MatchesRFC4648AndRoundTrips() {
        let vectors = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]
        for (plain, encoded) in vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
        #expect(Base64.encode([0xfb, 0xff]) == "+/8=")
        #expect(Base64.decode("+/8=") == [0xfb, 0xff])
    }

    @Test func malformedBase64IsRefused() {
        for bad in ["Zg=", "Z===", "Zm9v!A==", "Zg==Zg==", "Zm=v"] {
            #expect(Base64.decode(bad) == nil, "\(bad)")
        }
    }

    @Test func hexRoundTripsAndRefusesOddOrForeignDigits() {
        #expect(Hex.encode([0x00, 0xab, 0xff]) == "00abff")
        #expect(Hex.decode("00ABff") == [0x00, 0xab, 0xff])
        #expect(Hex.decode("abc") == nil)
        #expect(Hex.decode("zz") == nil)
    }
}
