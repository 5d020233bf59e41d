extension History {
    struct ScoredSeries: Codable {
        var city: MetroArea
        var fuel: FuelType
        var skill: AdviceSkill
    }

    /// Recomputes the skill (`AdviceScorecard` over the held-out half) of `city`'s series, or of every city's.
    mutating func rescore(_ city: MetroArea? = nil) {
        for key in skill.keys where city == nil || key.city == city { skill[key] = nil }
        for (key, points) in metro where city == nil || key.city == city {
            let card = AdviceScorecard.score(city: key.city, fuel: key.fuel, points: points, scored: AdviceScorecard.heldOut(points))
            if let scored = card.skill { skill[key] = scored }
        }
    }

    public func skill(city: MetroArea, fuel: FuelType) -> AdviceSkill? {
        skill[MetroFuel(city, fuel)]
    }
}
