import Testing

@testable import HTTP
import TestSupport

/// The request line is scanned eight bytes at a time (`ASCIIWords`) where a word clears, a byte at a time elsewhere:
/// the word tests must say exactly what the byte rules say of the word, and the parser must answer as the byte
/// rules do wherever the odd byte falls against the words.
@Suite struct ParserWordScanTests {
    func bytes(of word: UInt64) -> [UInt8] { (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) } }

    func check(_ word: UInt64, sourceLocation: SourceLocation = #_sourceLocation) {
        let each = bytes(of: word)
        for bound in [UInt8(1), 0x0E, 0x21, 0x41, 0x80] {
            #expect(ASCIIWords.anyBelow(word, bound) == each.contains { $0 < bound }, "\(word) below \(bound)", sourceLocation: sourceLocation)
        }
        for bound in [UInt8(0x00), 0x21, 0x7E, 0x7F] {
            #expect(ASCIIWords.anyAbove(word, bound) == each.contains { $0 > bound }, "\(word) above \(bound)", sourceLocation: sourceLocation)
        }
        #expect(ASCIIWords.any(word, equalTo: ASCII.hash) == each.contains(ASCII.hash), sourceLocation: sourceLocation)
        #expect(ASCIIWords.mayEndLine(word) == each.contains { $0 < 0x0E }, sourceLocation: sourceLocation)
        #expect(ASCIIWords.isPlainTarget(word) == each.allSatisfy { ASCII.isVisible($0) && $0 != ASCII.hash }, sourceLocation: sourceLocation)
    }

    /// Every byte value in every position of words otherwise plain, at the edges of the classes, or full of the
    /// byte itself; then random words, and random words of bytes near the classes' edges.
    @Test func wordTestsSayWhatTheByteRulesSay() {
        for background: UInt8 in [0x61, 0x21, 0x7E, 0x23, 0x0E, 0x80, 0xFF, 0x00] {
            for position in 0..<8 {
                for byte in UInt8.min...UInt8.max {
                    var each = [UInt8](repeating: background, count: 8)
                    each[position] = byte
                    check(each.enumerated().reduce(0) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) })
                }
            }
        }
        var random = SplitMix64(seed: 0xA5C11)
        let edges: [UInt8] = [0x00, 0x01, 0x0A, 0x0D, 0x0E, 0x20, 0x21, 0x22, 0x23, 0x24, 0x7E, 0x7F, 0x80, 0xFE, 0xFF]
        for _ in 0..<10_000 {
            check(random.next())
            var word: UInt64 = 0
            for position in 0..<8 { word |= UInt64(edges[Int(random.next() % UInt64(edges.count))]) << (8 * UInt64(position)) }
            check(word)
        }
    }

    /// A long target with one byte replaced, by every value, at each position across three words: parsed exactly
    /// when the byte is VCHAR and not `#`, and the target kept whole.
    @Test func anOddByteAnywhereInALongTargetIsJudgedAsItself() {
        let parser = HTTPRequestParser()
        let plain = "/v1/stations/along?polyline=" + String(repeating: "abcdefgh", count: 6)
        for position in 28..<52 {
            for byte in UInt8.min...UInt8.max {
                var target = Array(plain.utf8)
                target[position] = byte
                let request = Array("GET ".utf8) + target + Array(" HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
                let valid = ASCII.isVisible(byte) && byte != ASCII.hash
                switch parser.parse(request) {
                case .complete(let head, _, _):
                    #expect(valid, "byte \(byte) at \(position) was accepted")
                    #expect(Array(head.target.utf8) == target)
                case .failure(let error):
                    #expect(!valid, "byte \(byte) at \(position): \(error.reason)")
                    #expect(error.status == .badRequest, "byte \(byte) at \(position): \(error.status)")
                case .needMore:
                    Issue.record("byte \(byte) at \(position): asked for more")
                }
            }
        }
    }

    /// 414 exactly when the request line is longer than the limit, whatever its length's alignment to the words.
    @Test func theLineLimitHoldsToTheByteAtEveryAlignment() {
        let limit = 200
        let parser = HTTPRequestParser(limits: { var limits = HTTPParserLimits(); limits.maxRequestLineBytes = limit; return limits }())
        let fixed = "GET /".utf8.count + " HTTP/1.1".utf8.count
        for length in (limit - 12)...(limit + 12) {
            let line = "GET /" + String(repeating: "x", count: length - fixed) + " HTTP/1.1"
            let result = parser.parse(Array((line + "\r\nHost: a\r\n\r\n").utf8))
            if case .failure(let error) = result {
                #expect(length > limit && error.status == .uriTooLong, "line of \(length): \(error.status) \(error.reason)")
            } else {
                #expect(length <= limit, "line of \(length) was not refused")
            }
        }
    }
}
