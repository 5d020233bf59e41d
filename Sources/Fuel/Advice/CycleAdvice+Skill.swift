extension CycleAdvice {
    /// The advice as served: `skill` attached, and a cycle verdict (`wait`, `fill_up_now`) kept only where the rule
    /// beat the best naive baseline on held-out days (`AdviceSkill.beatsBaseline`); elsewhere `no_reliable_signal`,
    /// with a reason saying what was measured. Verdicts that are not forecasts (published tomorrow prices, no
    /// cycle, too little history) are kept as they are.
    public func gated(by skill: AdviceSkill?) -> CycleAdvice {
        var served = self
        served.skill = skill
        guard verdict == .wait || verdict == .fillUpNow else { return served }
        let place = "\(city.name) \(fuel.rawValue)"
        guard let skill else {
            served.verdict = .noReliableSignal
            served.reason = "The cycle advice for \(place) has not been scored on enough held-out days yet. " + reason
            return served
        }
        let record = "On \(skill.daysScored) held-out days to \(skill.through), the \(place) cycle rule was right "
            + "\(Self.percent(skill.hitRate)) of the time, \(skill.bestBaseline.phrase) \(Self.percent(skill.baselineHitRate))"
        if skill.beatsBaseline {
            served.reason = reason + " " + record + "."
        } else {
            served.verdict = .noReliableSignal
            let why = skill.daysScored < AdviceSkill.minimumDaysScored
                ? "too few days to tell" : skill.hitRate <= AdviceSkill.minimumHitRate ? "no better than a coin toss" : "no better"
            served.reason = record + ": \(why). " + reason
        }
        return served
    }
}
