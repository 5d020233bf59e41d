import Testing
@testable import HTTP

/// A chunked body's framing is bounded, not only its decoded size: with 1,000 leading zeros on every 1-byte chunk,
/// a connection could otherwise send 67 MiB of framing for 65 KiB of body in 30 s while the parser rescans every
/// chunk line on each read (one loop thread at 100% CPU, memory towards ~1 GiB). `Robustness/hostile_clients.py`
/// plays the same attack (scenario `chunk-framing`).
@Suite("Chunked framing is bounded")
struct ChunkFramingBudgetTests {
    static let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"

    static func body(chunks: Int, sizeLine: String, data: String) -> [UInt8] {
        let one = sizeLine + "\r\n" + data + "\r\n"
        return Array((head + String(repeating: one, count: chunks) + "0\r\n\r\n").utf8)
    }

    @Test("Leading zeros on every chunk size are 413 once the framing passes its budget")
    func leadingZerosAreBounded() {
        let padded = String(repeating: "0", count: 1000) + "1"
        // 1,005 framing bytes per chunk (1,001 digits, CRLF, CRLF after the data): 65 chunks fit in 64 KiB, 66 do not.
        #expect(parse(Self.body(chunks: 65, sizeLine: padded, data: "x")).isComplete)
        #expect(parse(Self.body(chunks: 66, sizeLine: padded, data: "x")).status == 413)
    }

    @Test("The failure comes while the framing arrives, not after the whole body is buffered")
    func failsEarly() {
        let padded = String(repeating: "0", count: 1000) + "1\r\nx\r\n"
        let endless = Array((Self.head + String(repeating: padded, count: 70)).utf8)
        #expect(parse(endless).status == 413)
        #expect(endless.count < HTTPRequestParser.maxChunkFramingBytes + 8 * 1024)
    }

    @Test("One-byte chunks are accepted up to the framing budget and refused past it")
    func oneByteChunks() {
        // 5 framing bytes per 1-byte chunk plus 3 for the last chunk line.
        #expect(parse(Self.body(chunks: 13_106, sizeLine: "1", data: "x")).isComplete)
        #expect(parse(Self.body(chunks: 13_107, sizeLine: "1", data: "x")).status == 413)
    }

    @Test("A 1 MiB body in 4 KiB chunks stays far below the framing budget")
    func ordinaryUploadsPass() {
        let result = parse(Self.body(chunks: 256, sizeLine: "1000", data: String(repeating: "y", count: 4096)))
        #expect(result.isComplete)
        if case .complete(_, let body, _) = result { #expect(body.count == 1024 * 1024) }
    }
}
