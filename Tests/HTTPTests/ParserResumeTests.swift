import Testing
@testable import HTTP
import TestSupport

/// The parser resumes from the `HTTPParseProgress` the previous call left: fed any split of a request, every
/// call answers exactly what parsing that prefix from scratch answers, and the scan work stays linear.
@Suite("Resuming a parse where it stopped")
struct ParserResumeTests {
    /// Every request of the parser tables: valid ones, malformed ones and the limit cases.
    static let inputs: [[UInt8]] = {
        var inputs = ParserSplitTests.requests.map { Array($0.utf8) }
        inputs += ParserMalformedTests.cases.map(\.bytes)
        let line = "GET / HTTP/1.1\r\nHost: a\r\nX: "
        inputs += [
            Array((line + String(repeating: "v", count: 40_000)).utf8),
            Array(("GET / HTTP/1.1\r\n" + String(repeating: "N", count: 40_000)).utf8),
            Array(("GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: a\r\n\r\n").utf8),
            Array((String(repeating: "\r\n", count: 5000) + "GET / HTTP/1.1\r\nHost: a\r\n\r\n").utf8),
            ParserLimitTests.chunked([1, 2, 3, 300, 1]),
            ParserLimitTests.chunked([1024 * 1024, 1]),
            Array(("GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n").utf8),
        ]
        return inputs
    }()

    /// Feeds `bytes` in pieces ending at each of `cuts` (increasing, the last one `bytes.count`), resuming each
    /// time, and checks every answer against a parse of that prefix from scratch. Returns the final progress.
    @discardableResult
    static func feed(_ bytes: [UInt8], cuts: [Int], sourceLocation: SourceLocation = #_sourceLocation) -> HTTPParseProgress {
        let parser = HTTPRequestParser()
        var progress = HTTPParseProgress()
        for cut in cuts {
            let prefix = Array(bytes[..<cut])
            let resumed = parser.parse(prefix, resuming: &progress)
            let fresh = parser.parse(prefix)
            #expect(ParseSnapshot(resumed) == ParseSnapshot(fresh), "at \(cut) of \(bytes.count)", sourceLocation: sourceLocation)
            #expect(reason(resumed) == reason(fresh), sourceLocation: sourceLocation)
            if !resumed.isNeedMore { break }
        }
        return progress
    }

    static func reason(_ result: HTTPParseResult) -> String? {
        if case .failure(let error) = result { return error.reason }
        return nil
    }

    @Test("One byte at a time gives what parsing each prefix whole gives, for every table input")
    func byteByByte() {
        for bytes in Self.inputs where bytes.count <= 12_000 {
            Self.feed(bytes, cuts: Array(0...bytes.count))
        }
    }

    @Test("Random splits give what parsing each prefix whole gives, for every table input")
    func randomSplits() {
        var random = SplitMix64(seed: 0x5EED)
        for bytes in Self.inputs {
            for _ in 0..<(bytes.count > 100_000 ? 3 : 20) {
                var cuts: [Int] = []
                var at = 0
                while at < bytes.count {
                    at = min(bytes.count, at + 1 + Int(random.next() % UInt64(max(1, bytes.count / 4))))
                    cuts.append(at)
                }
                Self.feed(bytes, cuts: cuts)
            }
        }
    }

    @Test("After a complete request the progress starts over for the next one in the buffer")
    func pipelined() throws {
        let first = Array("POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi".utf8)
        let second = Array("GET /b HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        let parser = HTTPRequestParser()
        var progress = HTTPParseProgress()
        #expect(parser.parse(Array(first.dropLast()), resuming: &progress).isNeedMore)
        let done = parser.parse(first + second.prefix(5), resuming: &progress)
        #expect(ParseSnapshot(done).consumed == first.count)
        #expect(ParseSnapshot(parser.parse(Array(second.prefix(5)), resuming: &progress)).kind == .needMore)
        let next = ParseSnapshot(parser.parse(second, resuming: &progress))
        #expect(next.kind == .complete && next.segments == ["b"])
    }

    /// A request of short field lines, a chunked one of 1-byte chunks and a long target: sizes where quadratic
    /// work (over 50 times the size) and linear work (at most 3 times) are far apart.
    static let manyHeaders = Array(("POST /up HTTP/1.1\r\nHost: a\r\n"
        + (0..<40).map { "X-Field-\($0): value number \($0)\r\n" }.joined() + "\r\n").utf8)
    static let manyChunks = ParserLimitTests.chunked(Array(repeating: 1, count: 400))

    @Test("Scan work fed one byte at a time stays within a small multiple of the request's size", arguments: [
        manyHeaders, manyChunks,
        Array(("GET /" + String(repeating: "a", count: 2000) + " HTTP/1.1\r\nHost: a\r\n\r\n").utf8),
    ])
    func linearWork(_ bytes: [UInt8]) throws {
        #if DEBUG
        #expect(bytes.count > 1000)
        // One parse from scratch per cut serves both as the reference answer and as the count of what starting
        // over at every byte (what resuming replaces) would scan.
        let parser = HTTPRequestParser()
        var progress = HTTPParseProgress()
        var restarted = 0
        for cut in 1...bytes.count {
            let prefix = Array(bytes[..<cut])
            let resumed = parser.parse(prefix, resuming: &progress)
            var fresh = HTTPParseProgress()
            let whole = parser.parse(prefix, resuming: &fresh)
            restarted += fresh.examined
            #expect(ParseSnapshot(resumed) == ParseSnapshot(whole), "at \(cut) of \(bytes.count)")
            #expect(Self.reason(resumed) == Self.reason(whole))
            if !resumed.isNeedMore { break }
        }
        #expect(progress.examined <= 3 * bytes.count, "examined \(progress.examined) bytes for \(bytes.count)")
        #expect(progress.examined >= bytes.count / 2, "the counter must see the scan")
        #expect(restarted > 50 * bytes.count, "restarting examined \(restarted) bytes for \(bytes.count)")
        #endif
    }
}
