import Foundation

/// How one device's due notifications go out: each daily summary group as one push, the immediate ones through
/// `BurstFolding` (at most 3 an hour, the rest folded into one "... and N more"). Pure, over what is due and when
/// the device's recent immediate pushes went.
public enum PushPlan {
    public struct Pending: Sendable, Equatable {
        public var id: Int64
        public var title: String
        public var message: String
        public var summaryGroup: String?

        public init(id: Int64, title: String, message: String, summaryGroup: String? = nil) {
            self.id = id
            self.title = title
            self.message = message
            self.summaryGroup = summaryGroup
        }
    }

    public struct Push: Sendable, Equatable {
        /// The outbox rows this push delivers; the first one's collapse id and data go with it.
        public var ids: [Int64]
        public var title: String
        public var message: String
        /// Whether it counts towards the burst limit (immediate pushes do; daily summaries do not).
        public var isImmediate: Bool
    }

    /// The pushes to send now, and, when the burst window is full, when to try the held ones again.
    public static func plan(_ pending: [Pending], recentSends: [Date], now: Date, folding: BurstFolding = BurstFolding()) -> (pushes: [Push], retryAt: Date?) {
        var pushes: [Push] = []
        var groups: [String: [Pending]] = [:]
        var order: [String] = []
        var immediate: [Pending] = []
        for item in pending {
            guard let group = item.summaryGroup else { immediate.append(item); continue }
            if groups[group] == nil { order.append(group) }
            groups[group, default: []].append(item)
        }
        for group in order {
            let items = groups[group]!
            pushes.append(Push(ids: items.map(\.id), title: items.count == 1 ? items[0].title : "Your daily fuel summary",
                               message: AlertText.summary(items.map { items.count == 1 ? $0.message : "\($0.title): \($0.message)" }), isImmediate: false))
        }
        switch folding.plan(pendingCount: immediate.count, recentSends: recentSends, now: now) {
        case .wait(let until):
            return (pushes, until)
        case .send(let individually, let folded):
            for position in individually {
                let item = immediate[position]
                pushes.append(Push(ids: [item.id], title: item.title, message: item.message, isImmediate: true))
            }
            if let first = folded.first.map({ immediate[$0] }) {
                pushes.append(Push(ids: folded.map { immediate[$0].id }, title: first.title,
                                   message: AlertText.folded(first.message, more: folded.count - 1), isImmediate: true))
            }
            return (pushes, nil)
        }
    }
}
