/// Capped exponential backoff between attempts at one request: 0.5 s, 1 s, 2 s, ... never above `cap`.
public struct PushRetry: Sendable, Equatable {
    public var attempts: Int
    public var base: Double
    public var cap: Double

    public init(attempts: Int = 4, base: Double = 0.5, cap: Double = 8) {
        self.attempts = max(1, attempts)
        self.base = base
        self.cap = cap
    }

    /// The wait after the `failures`-th failed attempt (1 for the first).
    public func delay(afterFailures failures: Int) -> Double {
        min(cap, base * Double(1 << min(max(failures - 1, 0), 30)))
    }
}
