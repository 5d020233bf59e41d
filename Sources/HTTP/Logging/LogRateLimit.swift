/// At most `burst` lines per `windowMillis`, per owner (one per event loop, so no lock): a flood of bad requests
/// cannot flood the log. The first line allowed after a quiet spell says how many were held back.
struct LogRateLimit {
    let burst: Int
    let windowMillis: Int64
    private var windowStart: Int64?
    private var inWindow = 0
    private var suppressed = 0
    private var tally = 0

    init(burst: Int = 10, windowMillis: Int64 = 1000) {
        self.burst = burst
        self.windowMillis = windowMillis
    }

    /// nil: drop this line. Otherwise log it; the value is how many lines were dropped since the last one logged.
    mutating func admit(now: Int64) -> Int? {
        if windowStart.map({ now - $0 >= windowMillis }) ?? true {
            windowStart = now
            inWindow = 0
        }
        guard inWindow < burst else {
            suppressed += 1
            return nil
        }
        inWindow += 1
        defer { suppressed = 0 }
        return suppressed
    }

    /// For a line that reports a count (connections shed, say): `count` more happened now. nil: drop this line;
    /// otherwise log it with the value, the total since the last line logged, this one's included.
    mutating func admit(now: Int64, tallying count: Int) -> Int? {
        tally += count
        guard admit(now: now) != nil else { return nil }
        defer { tally = 0 }
        return tally
    }
}
