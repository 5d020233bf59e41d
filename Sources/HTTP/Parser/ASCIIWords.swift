/// Eight bytes at a time over the long runs a request line is made of (an along route's target is kilobytes):
/// each test says exactly whether any of a word's bytes is in a class, never which one, so the parser skips the
/// words these clear and reads the rest a byte at a time as before (SWAR: "SIMD within a register").
enum ASCIIWords {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The 8 bytes at `index` of `buffer` (`index + 8 <= buffer.count`), in any byte order: the tests are per byte.
    @inline(__always)
    static func word(_ buffer: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt64 {
        UnsafeRawPointer(buffer.baseAddress! + index).loadUnaligned(as: UInt64.self)
    }

    /// Whether any byte is below `bound` (at most 0x80).
    @inline(__always)
    static func anyBelow(_ word: UInt64, _ bound: UInt8) -> Bool {
        (word &- ones &* UInt64(bound)) & ~word & highs != 0
    }

    /// Whether any byte is above `bound` (below 0x80).
    @inline(__always)
    static func anyAbove(_ word: UInt64, _ bound: UInt8) -> Bool {
        ((word &+ ones &* UInt64(0x7F - bound)) | word) & highs != 0
    }

    /// Whether any byte is `byte`.
    @inline(__always)
    static func any(_ word: UInt64, equalTo byte: UInt8) -> Bool {
        anyBelow(word ^ (ones &* UInt64(byte)), 1)
    }

    /// Whether any byte may end a request line (CR, LF, or any other control below 0x0E: such a word is read a byte
    /// at a time).
    @inline(__always)
    static func mayEndLine(_ word: UInt64) -> Bool { anyBelow(word, 0x0E) }

    /// Whether every byte is VCHAR (`ASCII.isVisible`) and none is `#`: a word a request target runs through.
    @inline(__always)
    static func isPlainTarget(_ word: UInt64) -> Bool {
        !anyBelow(word, 0x21) && !anyAbove(word, 0x7E) && !any(word, equalTo: ASCII.hash)
    }
}
