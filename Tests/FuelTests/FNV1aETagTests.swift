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
        }
    }
}
