import Foundation

extension AlertEvaluator {
    /// A new (or changed) alert against the current prices, as if each of its stations had just changed: a
    /// `price_below` already at or below its threshold fires once, a move starts measuring from today's price and
    /// `cheapest_changed` from today's cheapest. Its states start afresh (a changed alert's old ones no longer apply).
    public func seed(_ alertID: Int64, index fuelIndex: FuelIndex, now: Date) -> AlertOutcome {
        var outcome = AlertOutcome()
        guard let alert = index[alertID], alert.definition.kind != .waTomorrow else { return outcome }
        let poll = AlertPoll(index: fuelIndex, changes: [], now: now)
        if alert.definition.kind == .cheapestChanged {
            evaluateCheapest(alert, poll: poll, states: [:], into: &outcome)
            return outcome
        }
        let snapshot = fuelIndex.snapshot
        let fuel = alert.definition.fuel
        var slots: [Int] = []
        switch alert.definition.target {
        case .stations(let ids):
            slots = Set(ids).sorted().compactMap { snapshot.slot(of: $0) }
        case .near(let point, let radius):
            fuelIndex.spatial.forEach(near: point, radiusKm: radius, where: { _ in true }) { slots.append($0.slot) }
            slots.sort()
        }
        for slot in slots {
            let entry = snapshot.entries[slot]
            guard let price = entry.price(of: fuel), poll.counts(fuel, slot: slot) else { continue }
            evaluatePrice(alert, entry: entry, price: price.price, poll: poll, states: [:], into: &outcome)
        }
        return outcome
    }
}
