import Foundation

/// Matches a poll's changed prices against the index and applies each kind's rule with the stored states.
/// Pure: the same poll, index and states give the same decisions, so a retry after a failed write decides the same
/// rows (with the same keys) again. Only counted prices (neither stale nor implausible) move anything.
public struct AlertEvaluator: Sendable {
    public var index: AlertIndex
    /// The WA trading day whose tomorrow prices were last announced: `wa_tomorrow` speaks once per day.
    public var tomorrowAnnounced: String?

    public init(index: AlertIndex, tomorrowAnnounced: String? = nil) {
        self.index = index
        self.tomorrowAnnounced = tomorrowAnnounced
    }

    public func evaluate(_ poll: AlertPoll, states: AlertStates) -> AlertOutcome {
        var outcome = AlertOutcome()
        var areas: Set<Int64> = []
        let snapshot = poll.snapshot
        for change in poll.changes {
            guard let slot = snapshot.slot(of: change.station), poll.counts(change.fuel, slot: slot) else { continue }
            let entry = snapshot.entries[slot]
            guard let current = entry.price(of: change.fuel) else { continue }
            let price = current.price
            let (watching, near) = index.candidates(station: change.station, fuel: change.fuel, at: entry.station.location)
            for id in watching {
                guard let alert = index[id] else { continue }
                if alert.definition.kind == .cheapestChanged { areas.insert(id); continue }
                evaluatePrice(alert, entry: entry, price: price, poll: poll, states: states, into: &outcome)
            }
            for id in near {
                guard let alert = index[id], case .near(let point, let radius) = alert.definition.target,
                      point.distanceKm(to: entry.station.location) <= radius else { continue }
                if alert.definition.kind == .cheapestChanged { areas.insert(id); continue }
                evaluatePrice(alert, entry: entry, price: price, poll: poll, states: states, into: &outcome)
            }
        }
        for id in areas.sorted() {
            guard let alert = index[id] else { continue }
            evaluateCheapest(alert, poll: poll, states: states, into: &outcome)
        }
        evaluateTomorrow(poll, into: &outcome)
        return outcome
    }

    /// The per-station kinds: `price_below`, `price_drop`, `price_rise`.
    func evaluatePrice(_ alert: WatchedAlert, entry: StationEntry, price: PriceTenths, poll: AlertPoll, states: AlertStates, into outcome: inout AlertOutcome) {
        let definition = alert.definition
        let key = AlertStateKey(alertID: alert.id, station: entry.id)
        let state = outcome.states[key] ?? states[key] ?? AlertState()
        var next = state
        var message: String?
        switch definition.kind {
        case .priceBelow:
            guard let threshold = definition.threshold else { return }
            let rule = PriceBelowRule.evaluate(price: price, threshold: threshold, armed: state.armed)
            next.armed = rule.armed
            if rule.fires { message = AlertText.below(definition.fuel, price: price, threshold: threshold) }
        case .priceDrop, .priceRise:
            guard let change = definition.change else { return }
            let direction: PriceMoveRule.Direction = definition.kind == .priceDrop ? .drop : .rise
            let reference = state.reference ?? firstSeen(entry.id, definition.fuel, in: poll)
            let rule = PriceMoveRule.evaluate(price: price, reference: reference, change: change, direction: direction)
            next.reference = rule.reference
            if rule.fires, let reference {
                message = AlertText.moved(definition.fuel, from: reference, to: price, direction: direction)
            }
        case .cheapestChanged, .waTomorrow:
            return
        }
        if next != state { outcome.states[key] = next }
        guard let message else { return }
        decide(alert, station: entry, price: price, message: message,
               key: AlertDecision.key(alert: alert.id, station: entry.id, fuel: definition.fuel, version: poll.snapshot.version), poll: poll, into: &outcome)
    }

    /// The price an alert with no reference yet measures from: the station's counted price in the snapshot before.
    private func firstSeen(_ station: StationID, _ fuel: FuelType, in poll: AlertPoll) -> PriceTenths? {
        guard let previous = poll.previous, let entry = previous[station], let price = entry.price(of: fuel),
              previous.judge.standing(of: price, at: entry.station) == .counts else { return nil }
        return price.price
    }

    func decide(_ alert: WatchedAlert, station: StationEntry, price: PriceTenths, message: String, key: String, poll: AlertPoll, into outcome: inout AlertOutcome) {
        let (deliverAfter, group) = AlertSchedule.delivery(of: alert, decidedAt: poll.now)
        outcome.decisions.append(AlertDecision(
            key: key, alertID: alert.id, deviceID: alert.deviceID, station: station.id, fuel: alert.definition.fuel, price: price,
            title: station.station.name, message: message, deliverAfter: deliverAfter, summaryGroup: group))
    }
}
