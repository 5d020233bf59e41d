import Foundation

extension AlertEvaluator {
    /// One `cheapest_changed` alert whose area held a changed price: the area's cheapest counted price at a station
    /// neither judged closed nor members-only, against the one last notified.
    func evaluateCheapest(_ slot: Int, poll: AlertPoll, states: AlertStates, memo: inout AlertPollMemo, into outcome: inout AlertOutcome) {
        let record = index.records[slot]
        guard let answer = cheapest(slot, in: poll, memo: &memo) else { return }
        let entry = poll.snapshot.entries[answer.slot]
        let price = answer.price
        let key = AlertStateKey.area(record.id)
        let change = record.change == PackedAlert.none ? AlertDefinition.minChange : PriceTenths(tenths: Int(record.change))
        let rule = CheapestChangedRule.evaluate(cheapest: entry.id, price: price, reference: outcome.states[key] ?? states[key], change: change)
        let fuel = record.fuelType
        let decisionKey = "a\(record.id).cheapest.\(fuel.rawValue).v\(poll.snapshot.version)"
        switch rule {
        case .quiet(let state):
            if states[key] != state { outcome.states[key] = state }
        case .moved(let state):
            outcome.states[key] = state
            decide(slot, station: answer.slot, price: price, message: AlertText.cheapestMoved(fuel, price: price, station: entry.station.name),
                   key: decisionKey, poll: poll, memo: &memo, into: &outcome)
        case .dropped(let by, let state):
            outcome.states[key] = state
            decide(slot, station: answer.slot, price: price, message: AlertText.cheapestDropped(fuel, by: by, price: price),
                   key: decisionKey, poll: poll, memo: &memo, into: &outcome)
        }
    }

    /// The slot and price of the area's cheapest admitted, counted price (cheapest, then nearest or lowest id).
    private func cheapest(_ slot: Int, in poll: AlertPoll, memo: inout AlertPollMemo) -> AlertPollMemo.Answer? {
        let record = index.records[slot]
        let fuel = record.fuelType
        if record.isNear {
            let answer = memo.cheapest(alert: slot, record, in: poll.index)
            return answer.flatMap { poll.isSample($0.slot) ? nil : $0 }
        }
        let index = poll.index
        var best: AlertPollMemo.Answer?
        for id in Set(self.index.stations(of: slot)).sorted() {
            guard let station = index.snapshot.slot(of: id), let price = index.snapshot.entries[station].price(of: fuel),
                  poll.counts(fuel, slot: station), !index.isMembersOnly(station),
                  memo.access.admits(index.snapshot.entries[station].station) else { continue }
            if best.map({ price.price < $0.price }) ?? true { best = AlertPollMemo.Answer(slot: station, price: price.price) }
        }
        return best
    }
}
