import Synchronization

/// Request counters by route pattern and status, a latency histogram per route, bytes sent and open connections.
/// Each event loop counts into its own `CounterCells` (the request's `RequestID.loop` picks them); `snapshot()`
/// sums the loops, so the request path takes no lock and touches no counter another loop writes.
public final class HTTPMetrics: Sendable {
    /// Upper bounds of the latency buckets, in seconds (`+Inf` is implied).
    public static let durationBuckets: [Double] = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]
    /// The route label of requests no route matched (404, 405, OPTIONS, 501, static files).
    public static let unmatchedRoute = "unmatched"
    static let statusRange = 100..<600

    /// Slot → route pattern; the last slot is `unmatchedRoute`.
    let routes: [String]
    private let slots: [String: Int]
    private let bucketMicros: [Int64]
    private let loops: [CounterCells]
    /// Shared by the loops, as before metrics: the connection cap needs one count.
    let openConnections = Atomic<Int>(0)

    // Layout of one loop's cells: requests [slot][status], buckets [slot][bucket incl. +Inf], duration sums
    // (microseconds) [slot], bytes sent, requests refused before routing [status].
    private var bucketsOffset: Int { routes.count * Self.statusRange.count }
    private var sumsOffset: Int { bucketsOffset + routes.count * (bucketMicros.count + 1) }
    private var bytesOffset: Int { sumsOffset + routes.count }
    private var refusalsOffset: Int { bytesOffset + 1 }

    public init(routePatterns: [String], loops: Int) {
        var routes: [String] = []
        var slots: [String: Int] = [:]
        for pattern in routePatterns + [Self.unmatchedRoute] where slots[pattern] == nil {
            slots[pattern] = routes.count
            routes.append(pattern)
        }
        self.routes = routes
        self.slots = slots
        bucketMicros = Self.durationBuckets.map { Int64(($0 * 1_000_000).rounded()) }
        let perLoop = routes.count * (Self.statusRange.count + bucketMicros.count + 2) + 1 + Self.statusRange.count
        self.loops = (0..<max(1, loops)).map { _ in CounterCells(count: perLoop) }
    }

    /// The slot of a route pattern, resolved once at boot (unknown patterns count as unmatched).
    func slot(for pattern: String?) -> Int {
        pattern.flatMap { slots[$0] } ?? routes.count - 1
    }

    @inline(__always)
    private func cells(_ loop: Int) -> CounterCells { loops[loop % loops.count] }

    func record(slot: Int, status: Int, micros: Int64, loop: Int) {
        let cells = cells(loop)
        let status = Self.statusRange.contains(status) ? status : 500
        cells.add(slot * Self.statusRange.count + status - Self.statusRange.lowerBound)
        var bucket = 0
        while bucket < bucketMicros.count && micros > bucketMicros[bucket] { bucket += 1 }
        cells.add(bucketsOffset + slot * (bucketMicros.count + 1) + bucket)
        cells.add(sumsOffset + slot, UInt64(max(0, micros)))
    }

    func recordBytesSent(_ count: Int, loop: Int) {
        cells(loop).add(bytesOffset, UInt64(count))
    }

    /// A request the connection answered itself, before any route: a parser error (400, 413, 414, 431, 501, 505),
    /// a timeout (408) or an unmet expectation (417).
    func recordRefusal(status: Int, loop: Int) {
        let status = Self.statusRange.contains(status) ? status : 500
        cells(loop).add(refusalsOffset + status - Self.statusRange.lowerBound)
    }

    /// Every loop's counters, summed.
    public func snapshot() -> HTTPMetricsSnapshot {
        func total(_ index: Int) -> UInt64 { loops.reduce(0) { $0 &+ $1.load(index) } }
        var requests: [HTTPMetricsSnapshot.RequestCount] = []
        var durations: [HTTPMetricsSnapshot.Histogram] = []
        for (slot, route) in routes.enumerated() {
            for status in Self.statusRange {
                let count = total(slot * Self.statusRange.count + status - Self.statusRange.lowerBound)
                if count > 0 { requests.append(.init(route: route, status: status, count: count)) }
            }
            let first = bucketsOffset + slot * (bucketMicros.count + 1)
            let counts = (0...bucketMicros.count).map { total(first + $0) }
            let count = counts.reduce(0, &+)
            guard count > 0 else { continue }
            var cumulative: UInt64 = 0
            let buckets = counts.map { cumulative &+= $0; return cumulative }
            durations.append(.init(route: route, cumulativeCounts: buckets, count: count, sumSeconds: Double(total(sumsOffset + slot)) / 1_000_000))
        }
        let refusals = Self.statusRange.compactMap { status -> HTTPMetricsSnapshot.RefusalCount? in
            let count = total(refusalsOffset + status - Self.statusRange.lowerBound)
            return count > 0 ? .init(status: status, count: count) : nil
        }
        return HTTPMetricsSnapshot(
            requests: requests, durations: durations, refusals: refusals, bytesSent: total(bytesOffset),
            openConnections: openConnections.load(ordering: .relaxed))
    }
}
