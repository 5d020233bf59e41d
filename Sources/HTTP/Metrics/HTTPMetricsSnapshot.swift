/// The HTTP counters summed over every event loop at one scrape.
public struct HTTPMetricsSnapshot: Sendable {
    public struct RequestCount: Sendable, Equatable {
        public var route: String
        public var status: Int
        public var count: UInt64
    }

    /// Requests refused before routing, by the status they were answered with.
    public struct RefusalCount: Sendable, Equatable {
        public var status: Int
        public var count: UInt64
    }

    public struct Histogram: Sendable {
        public var route: String
        /// One per `HTTPMetrics.durationBuckets` bound, then `+Inf` (equal to `count`).
        public var cumulativeCounts: [UInt64]
        public var count: UInt64
        public var sumSeconds: Double
    }

    public var requests: [RequestCount]
    public var durations: [Histogram]
    public var refusals: [RefusalCount]
    public var bytesSent: UInt64
    public var openConnections: Int
}
