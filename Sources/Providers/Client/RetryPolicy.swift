import Foundation

/// Bounded retries with exponential backoff and full jitter (AWS "Exponential Backoff And Jitter"):
/// attempt n waits a random time in `0...min(maxDelay, baseDelay * 2^(n-1))`, or the server's `Retry-After`
/// when it asks for longer, up to `maxRetryAfter` (beyond that the error is returned instead of waiting).
public struct RetryPolicy: Sendable {
    /// Attempts in all, including the first. 1 means no retries.
    public var maxAttempts: Int
    public var baseDelay: TimeInterval
    public var maxDelay: TimeInterval
    public var maxRetryAfter: TimeInterval

    public init(maxAttempts: Int = 3, baseDelay: TimeInterval = 1, maxDelay: TimeInterval = 20, maxRetryAfter: TimeInterval = 120) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.maxRetryAfter = maxRetryAfter
    }

    public static let none = RetryPolicy(maxAttempts: 1)

    /// How long to wait after failed attempt number `attempt` (1-based); nil when the server asked for more
    /// than `maxRetryAfter`.
    public func delay(afterAttempt attempt: Int, retryAfter: TimeInterval?) -> TimeInterval? {
        let ceiling = min(maxDelay, baseDelay * pow(2, Double(max(0, attempt - 1))))
        let jittered = ceiling > 0 ? Double.random(in: 0...ceiling) : 0
        guard let retryAfter else { return jittered }
        guard retryAfter <= maxRetryAfter else { return nil }
        return max(jittered, retryAfter)
    }

    /// `Retry-After` as delta-seconds (the HTTP-date form is not used by these providers and is ignored).
    static func retryAfterSeconds(_ value: String?) -> TimeInterval? {
        guard let value, let seconds = Int(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 else { return nil }
        return TimeInterval(seconds)
    }
}

/// At most `limit` requests per `window` seconds (VIC: 10 per 60 s; NSW trial tier: 5 per 60 s). `acquire`
/// waits for a free slot; it returns false if the task was cancelled while waiting.
public actor RequestBudget {
    public let limit: Int
    public let window: TimeInterval
    private var sent: [Date] = []

    public init(limit: Int, per window: TimeInterval) {
        self.limit = max(1, limit)
        self.window = window
    }

    public func acquire() async -> Bool {
        while true {
            let now = Date()
            sent.removeAll { now.timeIntervalSince($0) >= window }
            if sent.count < limit {
                sent.append(now)
                return true
            }
            let wait = window - now.timeIntervalSince(sent[0]) + 0.01
            do { try await Task.sleep(nanoseconds: UInt64(max(0.01, wait) * 1e9)) } catch { return false }
        }
    }
}
