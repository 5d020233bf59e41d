import Testing

@testable import Fuel

/// The ETag spelling is written digit by digit; it must stay the one every client already holds.
@Suite struct FNV1aETagTests {
    @Test func theETagIsTheQuotedLowerCaseHexOfTheHash() {
        var generator = SeededGenerator(seed: 3)
        var values: [UInt64] = [0, 1, 9, 10, 15, 16, 255, 256, 0xABCDEF, 1 << 63, UInt64.max, UInt64.max >> 4]
        for _ in 0..<2_000 { values.append(UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator)) }
        for value in values {
            #expect(FNV1a(value: value).etag == "\"\(String(value, radix: 16))\"", "\(value)")
            #expect(FNV1a(value: value).weakETag == "W/\"\(String(value, radix: 16))\"", "\(value)")
        }
    }

    /// `mix`, the word-wise hash of per-request ETags: equal bytes agree, and any one changed byte, a byte more or
    /// less (zeros included) or a different split between tail and words gives another value.
    @Test func mixTellsApartEveryOneByteChangeAndEveryLength() {
        func mixed(_ bytes: [UInt8]) -> UInt64 {
            var hash = FNV1a()
            bytes.withUnsafeBytes { hash.mix($0) }
            return hash.value
        }
        var generator = SeededGenerator(seed: 4)
        for length in 0..<40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            #expect(mixed(bytes) == mixed(bytes))
            #expect(mixed(bytes) != mixed(bytes + [0]), "length \(length)")
            var seen: Set<UInt64> = [mixed(bytes)]
            for position in bytes.indices {
                for flip: UInt8 in [1, 0x80, 0xFF] {
                    var changed = bytes
                    changed[position] ^= flip
                    #expect(seen.insert(mixed(changed)).inserted, "length \(length), byte \(position) ^ \(flip)")
                }
            }
        }
        #expect(mixed([]) != FNV1a().value)
    }
}
