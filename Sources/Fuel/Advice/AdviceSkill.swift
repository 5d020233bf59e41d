/// How the served cycle rule did on held-out days against the obvious rules anyone could follow without us, scored
/// the same way on the same days (`AdviceScorecard`). The advice is served only where it beats the best of them.
public struct AdviceSkill: Hashable, Codable, Sendable {
    /// The naive rules the served one must beat. Raw values are the API's wire names.
    public enum Baseline: String, Hashable, Codable, Sendable, CaseIterable {
        /// Always "fill up now".
        case alwaysFillUpNow = "always_fill_up_now"
        /// "Wait" when today's average is above the mean of the last 7 days' averages, else "fill up now".
        case waitAboveWeekMean = "wait_above_7_day_mean"
        /// Always "wait".
        case alwaysWait = "always_wait"

        /// How the reason names it.
        public var phrase: String {
            switch self {
            case .alwaysFillUpNow: "always filling up now"
            case .waitAboveWeekMean: "waiting whenever the average is above its 7-day mean"
            case .alwaysWait: "always waiting"
            }
        }
    }

    /// Share of the scored days the served rule was right.
    public var hitRate: Double
    public var bestBaseline: Baseline
    public var baselineHitRate: Double
    public var daysScored: Int
    /// The newest day of the history the scores were computed from (`yyyy-MM-dd`).
    public var through: String

    /// Fewer scored days than this prove nothing either way.
    public static let minimumDaysScored = 10

    /// A rule right no more often than this is a coin toss, whatever the baselines did (on flat days every rule is
    /// wrong, so all can score under a half: Melbourne E85's 29 % against 25 %).
    public static let minimumHitRate = 0.5

    /// Whether the served rule may be served: enough days, strictly more often right than the best baseline, and
    /// right more often than not.
    public var beatsBaseline: Bool {
        daysScored >= Self.minimumDaysScored && hitRate > baselineHitRate + 1e-9 && hitRate > Self.minimumHitRate
    }
}
