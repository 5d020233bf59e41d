import Foundation

extension AlertEvaluator {
    /// One `cheapest_changed` alert whose area held a changed price: the area's cheapest counted price at a station
    /// neither judged closed nor members-only, against the one last notified.
    func evaluateCheapest(_ slot: Int, poll: AlertPoll, states: AlertStates, memo: inout AlertPollMemo, into outcome: inout AlertOutcome) {
        let record = index.records[slot]
        guard let answer = cheapest(slot, in: poll, memo: &memo) else { return }
        let price = answer.price
        let key = AlertStateKey.area(record.id)
        let change = record.change == PackedAlert.none ? AlertDefinition.minChange : PriceTenths(tenths: Int(record.change))
        // Each area alert is evaluated once per poll, so no state of this poll's outcome precedes the stored one.
        let stored = states[key]
        let rule = CheapestChangedRule.evaluate(cheapest: poll.snapshot.entries[answer.slot].id, price: price, reference: stored, change: change)
        let fuel = record.fuelType
        let message: String
        switch rule {
        case .quiet(let state):
            if stored != state { outcome.states[key] = state }
            return
        case .moved(let state):
            outcome.states[key] = state
            message = AlertText.cheapestMoved(fuel, price: price, station: poll.snapshot.entries[answer.slot].station.name)
        case .dropped(let by, let state):
            outcome.states[key] = state
            message = AlertText.cheapestDropped(fuel, by: by, price: price)
        }
        decide(slot, station: answer.slot, price: price, message: message,
               key: "a\(record.id).cheapest.\(fuel.rawValue).v\(poll.snapshot.version)", poll: poll, memo: &memo, into: &outcome)
    }

    /// The slot and price of the area's cheapest admitted, counted price (cheapest, then nearest or lowest id).
    private func cheapest(_ slot: Int, in poll: AlertPoll, memo: inout AlertPollMemo) -> AlertPollMemo.Answer? {
        let record = index.records[slot]
        let fuel = record.fuelType
        if record.isNear {
            return memo.cheapest(alert: slot, record, in: poll.index)
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
