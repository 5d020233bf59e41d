import Foundation

extension AlertEvaluator {
    /// One `cheapest_changed` alert whose area held a changed price: the area's cheapest counted price at a station
    /// neither judged closed nor members-only, against the one last notified.
    func evaluateCheapest(_ alert: WatchedAlert, poll: AlertPoll, states: AlertStates, into outcome: inout AlertOutcome) {
        let definition = alert.definition
        guard let (slot, price) = cheapest(definition, in: poll) else { return }
        let entry = poll.snapshot.entries[slot]
        let key = AlertStateKey.area(alert.id)
        let rule = CheapestChangedRule.evaluate(
            cheapest: entry.id, price: price, reference: outcome.states[key] ?? states[key], change: definition.change ?? AlertDefinition.minChange)
        let version = poll.snapshot.version
        let decisionKey = "a\(alert.id).cheapest.\(definition.fuel.rawValue).v\(version)"
        switch rule {
        case .quiet(let state):
            if states[key] != state { outcome.states[key] = state }
        case .moved(let state):
            outcome.states[key] = state
            decide(alert, station: entry, price: price, message: AlertText.cheapestMoved(definition.fuel, price: price, station: entry.station.name),
                   key: decisionKey, poll: poll, into: &outcome)
        case .dropped(let by, let state):
            outcome.states[key] = state
            decide(alert, station: entry, price: price, message: AlertText.cheapestDropped(definition.fuel, by: by, price: price),
                   key: decisionKey, poll: poll, into: &outcome)
        }
    }

    /// The slot and price of the area's cheapest admitted, counted price (cheapest, then nearest or lowest id).
    private func cheapest(_ definition: AlertDefinition, in poll: AlertPoll) -> (Int, PriceTenths)? {
        let index = poll.index
        let access = AccessFilter(opening: .notClosed, excludesMembersOnly: true, clocks: poll.clocks, wall: poll.now)
        switch definition.target {
        case .near(let point, let radius):
            guard let hit = index.cheapestNearHits(fuel: definition.fuel, point: point, radiusKm: radius, limit: 1, access: access).first,
                  !poll.isSample(hit.slot),
                  let price = index.snapshot.entries[hit.slot].price(of: definition.fuel) else { return nil }
            return (hit.slot, price.price)
        case .stations(let ids):
            var best: (Int, PriceTenths)?
            for id in Set(ids).sorted() {
                guard let slot = index.snapshot.slot(of: id), let price = index.snapshot.entries[slot].price(of: definition.fuel),
                      poll.counts(definition.fuel, slot: slot), !index.isMembersOnly(slot),
                      access.admits(index.snapshot.entries[slot].station) else { continue }
                if best.map({ price.price < $0.1 }) ?? true { best = (slot, price.price) }
            }
            return best
        }
    }
}
