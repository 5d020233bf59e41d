/// How long to wait before the next connection attempt after `failures` failures in a row: doubling from `base`,
/// capped at `cap`, so a database that is down is neither hammered nor waited on for ever.
public struct ReconnectBackoff: Sendable, Equatable {
    public var base: Double
    public var cap: Double

    public init(base: Double = 0.1, cap: Double = 5) {
        self.base = base
        self.cap = cap
    }

    public func delay(afterFailures failures: Int) -> Double {
        guard failures > 0 else { return 0 }
        return min(cap, base * Double(1 << min(failures - 1, 30)))
    }
}
