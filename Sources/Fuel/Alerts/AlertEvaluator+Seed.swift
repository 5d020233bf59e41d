import Foundation

extension AlertEvaluator {
    /// A new (or changed) alert against the current prices, as if each of its stations had just changed: a
    /// `price_below` already at or below its threshold fires once, a move starts measuring from today's price and
    /// `cheapest_changed` from today's cheapest. Its states start afresh (a changed alert's old ones no longer apply).
    public func seed(_ alertID: Int64, index fuelIndex: FuelIndex, now: Date) -> AlertOutcome {
        seed(alertID, poll: AlertPoll(index: fuelIndex, changes: [], now: now))
    }

    /// The same, against `poll` (one with no changes): seeding many alerts at once makes the poll, whose cost grows
    /// with the stations, once.
    public func seed(_ alertID: Int64, poll: AlertPoll) -> AlertOutcome {
        var outcome = AlertOutcome()
        guard let alertSlot = index.slot(of: alertID).map(Int.init) else { return outcome }
        let record = index.records[alertSlot]
        guard record.alertKind != .waTomorrow else { return outcome }
        let fuelIndex = poll.index
        var memo = AlertPollMemo(poll)
        if record.alertKind == .cheapestChanged {
            evaluateCheapest(alertSlot, poll: poll, states: [:], memo: &memo, into: &outcome)
            return outcome
        }
        let snapshot = fuelIndex.snapshot
        let fuel = record.fuelType
        var slots: [Int] = []
        if record.isNear {
            fuelIndex.spatial.forEach(near: record.center, radiusKm: record.radiusKm,
                                      where: { _ in true }) { slots.append($0.slot) }
            slots.sort()
        } else {
            slots = Set(index.stations(of: alertSlot)).sorted().compactMap { snapshot.slot(of: $0) }
        }
        for slot in slots {
            let entry = snapshot.entries[slot]
            guard let price = entry.price(of: fuel), poll.counts(fuel, slot: slot) else { continue }
            let change = CountedChange(slot: slot, station: entry.id, location: entry.station.location, cosLatitude: entry.station.location.cosLatitude,
                                       price: price.price, previous: nil)
            evaluatePrice(alertSlot, change, poll: poll, states: [:], memo: &memo, into: &outcome)
        }
        return outcome
    }
}
