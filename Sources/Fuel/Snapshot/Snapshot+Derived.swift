/// What the domain derives from a snapshot's content on first use, shared by every copy of it: a merge judges the
/// old snapshot (already judged when it was indexed) and the new one, whose history, change log and index then read
/// the same judge and averages rather than working them out again.
final class SnapshotDerivations: Sendable {
    let judge = BuiltOnce<PriceJudge>()
    let averages = BuiltOnce<Averages>()
}

extension Snapshot {
    /// The rules that decide each price's standing in this snapshot, computed once.
    public var judge: PriceJudge { derived.judge.value { PriceJudge(snapshot: self) } }

    /// Every state's averages by `judge`, computed once.
    public var averages: Averages { derived.averages.value { Averages(snapshot: self, judge: judge) } }

    /// Whether `judge` has been built (tests check copies share it).
    var isJudged: Bool { derived.judge.isBuilt }
}
