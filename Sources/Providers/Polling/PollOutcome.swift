import Foundation
import Fuel

/// What one poll step did.
public struct PollOutcome: Sendable {
    public enum Result: Sendable {
        /// An update reached the merge (applied, or rejected as empty/implausible: see the report).
        case merged(MergeReport)
        /// No usable data: the request that failed and why. Nothing reached the merge.
        case failed(ProviderError, request: String)
        /// Nothing was due or nothing new was published (WA tomorrow before 14:30); not a failure.
        case idle(String)
    }

    public var result: Result
    /// When the schedule wants the next step (after success; the runner may retry earlier after a failure).
    public var next: Date
    /// Extra facts for the log line (adapter tally, tomorrow publication).
    public var notes: [String]

    public init(_ result: Result, next: Date, notes: [String] = []) {
        self.result = result
        self.next = next
        self.notes = notes
    }

    /// Whether the step's update was merged (not refused, failed or idle).
    public var isApplied: Bool {
        if case .merged(let report) = result { return report.isApplied }
        return false
    }
}
