import Testing
@testable import HTTP

@Suite("A busy loop yields its core once per interval")
struct YieldPacerTests {
    @Test("The first busy batch yields, then no more than once per 250 µs, however many batches come between")
    func pacing() {
        var pacer = YieldPacer()
        let start: Int64 = 1_000_000
        // Batches finishing at these offsets (µs), and whether each yields.
        let offsets: [Int64] = [0] + Array(1..<250) + [250, 251, 10_000, 10_249, 10_250]
        let yielded = offsets.map { pacer.shouldYield(afterBatchAt: start + $0) }
        #expect(yielded[0])
        #expect(yielded[1..<250].allSatisfy { !$0 })
        #expect(Array(yielded[250...]) == [true, false, true, false, true])
    }
}
