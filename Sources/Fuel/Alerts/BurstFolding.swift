import Foundation

/// At most `limit` immediate pushes per device in any rolling `window`; beyond that the rest fold into one
/// "... and N more". A pure plan over what was sent recently and what is waiting, in the order it was decided.
public struct BurstFolding: Sendable, Equatable {
    public var limit: Int
    public var window: TimeInterval

    public init(limit: Int = 3, window: TimeInterval = 3600) {
        self.limit = limit
        self.window = window
    }

    public enum Plan: Sendable, Equatable {
        /// Send these (indices into `pending`) one by one, and if `folded` is not empty, one more push for all of
        /// them ("<the first> and \(folded.count - 1) more").
        case send(individually: [Int], folded: [Int])
        /// The window is full: ask again at `at`, when its oldest push leaves it.
        case wait(until: Date)
    }

    /// `recentSends` are this device's push times; those within (now - window, now] count.
    public func plan(pendingCount: Int, recentSends: [Date], now: Date) -> Plan {
        let inWindow = recentSends.filter { $0 > now.addingTimeInterval(-window) && $0 <= now }
        let free = limit - inWindow.count
        guard pendingCount > 0 else { return .send(individually: [], folded: []) }
        guard free > 0 else { return .wait(until: (inWindow.min() ?? now).addingTimeInterval(window)) }
        if pendingCount <= free { return .send(individually: Array(0..<pendingCount), folded: []) }
        return .send(individually: Array(0..<(free - 1)), folded: Array((free - 1)..<pendingCount))
    }
}
