import Foundation

/// Matches a poll's changed prices against the index and applies each kind's rule with the stored states.
/// Pure: the same poll, index and states give the same decisions, so a retry after a failed write decides the same
/// rows (with the same keys) again. Only counted prices (neither stale nor implausible) move anything.
///
/// The work follows the changes and their matches: each counted change visits the alerts watching its station, and
/// the `near` alerts of each grid cell holding changes are visited once each, against the changes of the cells
/// they cover. A `cheapest_changed` alert whose area held a change asks its area's cheapest once; alerts asking
/// the same question (centre, radius, fuel) share one search (`AlertPollMemo`), and a `near` one's answer is held
/// across polls, searched again only when its held cheapest got dearer or left (`HeldCheapest`).
public struct AlertEvaluator: Sendable {
    public var index: AlertIndex
    /// The WA trading day whose tomorrow prices were last announced: `wa_tomorrow` speaks once per day.
    public var tomorrowAnnounced: String?
    /// Each `near` `cheapest_changed` alert's answer as of the last poll evaluated. Answers only: the decisions
    /// are what searching every area would decide, so evaluating a poll again decides the same.
    var held = HeldCheapest()
    /// How many cheapest searches the last poll ran (the benchmark's report).
    public private(set) var lastSearches = 0

    public init(index: AlertIndex, tomorrowAnnounced: String? = nil) {
        self.index = index
        self.tomorrowAnnounced = tomorrowAnnounced
    }

    /// A changed price that counts, as the rules read it.
    struct CountedChange: PlacedChange {
        var slot: Int
        var station: StationID
        var location: Coordinate
        var cosLatitude: Double
        var price: PriceTenths
        /// The station's counted price in the snapshot before (what a move with no reference measures from).
        var previous: PriceTenths?
    }

    public mutating func evaluate(_ poll: AlertPoll, states: AlertStates) -> AlertOutcome {
        var outcome = AlertOutcome()
        outcome.states.reserveCapacity(poll.changes.count * 32)
        var memo = AlertPollMemo(poll)
        memo.held = held
        held = HeldCheapest() // the memo's copy is the only one: advanced and held in place
        memo.held!.advance(to: poll, access: memo.access, alerts: index)
        defer {
            held = memo.held ?? HeldCheapest()
            lastSearches = memo.searches
        }
        var areas: Set<Int32> = []
        var byCell: [AlertIndex.CellFuel: [CountedChange]] = [:]
        let snapshot = poll.snapshot
        // One change per station and fuel (a snapshot lists one current price each), so each alert's state at a
        // station is read once per poll, from the stored states alone.
        var seen = Set<AlertIndex.StationFuel>(minimumCapacity: poll.changes.count)
        for change in poll.changes {
            guard seen.insert(AlertIndex.StationFuel(station: change.station, fuel: change.fuel)).inserted,
                  let slot = snapshot.slot(of: change.station), poll.counts(change.fuel, slot: slot),
                  let price = poll.index.priceTenths(change.fuel, slot: slot) else { continue }
            let location = snapshot.entries[slot].station.location
            let counted = CountedChange(slot: slot, station: change.station, location: location, cosLatitude: location.cosLatitude,
                                        price: PriceTenths(tenths: price),
                                        previous: firstSeen(change.station, change.fuel, in: poll))
            for alert in index.watching(station: change.station, fuel: change.fuel) {
                if index.records[Int(alert)].alertKind == .cheapestChanged { areas.insert(alert); continue }
                evaluatePrice(Int(alert), counted, poll: poll, states: states, memo: &memo, into: &outcome)
            }
            byCell[AlertIndex.CellFuel(cell: AlertGridCell(location), fuel: change.fuel), default: []].append(counted)
        }
        for cell in byCell.values.indices { byCell.values[cell].sort { $0.location.latitude < $1.location.latitude } }
        evaluateNear(byCell, areas: &areas, poll: poll, states: states, memo: &memo, into: &outcome)
        for (_, slot) in areas.map({ (index.records[Int($0)].id, $0) }).sorted(by: { $0.0 < $1.0 }) {
            evaluateCheapest(Int(slot), poll: poll, states: states, memo: &memo, into: &outcome)
        }
        evaluateTomorrow(poll, memo: &memo, into: &outcome)
        // In the order of the alerts, not of the index's lists (which follow its history of upserts): a reloaded
        // index decides the same rows in the same order, and the outbox's order is what the burst limit sends first.
        outcome.decisions.sort { ($0.alertID, $0.station.rawValue) < ($1.alertID, $1.station.rawValue) }
        return outcome
    }

    /// The `near` alerts against the changes of each cell holding some. An alert is filed under every cell its circle
    /// touches and a change lies in one cell, so each (alert, change) pair is met once, with no walk over the cells an
    /// alert covers.
    private func evaluateNear(
        _ byCell: [AlertIndex.CellFuel: [CountedChange]], areas: inout Set<Int32>, poll: AlertPoll, states: AlertStates, memo: inout AlertPollMemo,
        into outcome: inout AlertOutcome
    ) {
        let cells = byCell.keys.sorted { ($0.fuel.ordinal, $0.cell.row, $0.cell.column) < ($1.fuel.ordinal, $1.cell.row, $1.cell.column) }
        for cellFuel in cells {
            guard let changes = byCell[cellFuel] else { continue }
            for alert in index.nearCheapest(cell: cellFuel.cell, fuel: cellFuel.fuel) where !areas.contains(alert) {
                let record = index.records[Int(alert)]
                RadiusBand.forEach(in: changes, within: record.radiusKm, of: record.center) { _, _ in
                    areas.insert(alert)
                    return false
                }
            }
            for alert in index.nearPrice(cell: cellFuel.cell, fuel: cellFuel.fuel) {
                let slot = Int(alert)
                let record = index.records[slot]
                RadiusBand.forEach(in: changes, within: record.radiusKm, of: record.center) { change, _ in
                    evaluatePrice(slot, change, poll: poll, states: states, memo: &memo, into: &outcome)
                    return true
                }
            }
        }
    }

    /// The per-station kinds: `price_below`, `price_drop`, `price_rise`.
    func evaluatePrice(
        _ slot: Int, _ change: CountedChange, poll: AlertPoll, states: AlertStates, memo: inout AlertPollMemo, into outcome: inout AlertOutcome
    ) {
        let record = index.records[slot]
        let price = change.price
        let kind = record.alertKind
        if kind == .priceBelow, record.threshold != PackedAlert.none,
           price.tenths > Int(record.threshold), price.tenths < Int(record.threshold) + PriceBelowRule.rearmMargin.tenths {
            return // between the threshold and the re-arm margin nothing changes, armed or not
        }
        let key = AlertStateKey(alertID: record.id, station: change.station)
        let state = states[key] ?? AlertState()
        var next = state
        var message: String?
        switch kind {
        case .priceBelow:
            guard record.threshold != PackedAlert.none else { return }
            let threshold = PriceTenths(tenths: Int(record.threshold))
            let rule = PriceBelowRule.evaluate(price: price, threshold: threshold, armed: state.armed)
            next.armed = rule.armed
            if rule.fires { message = AlertText.below(record.fuelType, price: price, threshold: threshold) }
        case .priceDrop, .priceRise:
            guard record.change != PackedAlert.none else { return }
            let direction: PriceMoveRule.Direction = kind == .priceDrop ? .drop : .rise
            let reference = state.reference ?? change.previous
            let rule = PriceMoveRule.evaluate(price: price, reference: reference, change: PriceTenths(tenths: Int(record.change)), direction: direction)
            next.reference = rule.reference
            if rule.fires, let reference {
                message = AlertText.moved(record.fuelType, from: reference, to: price, direction: direction)
            }
        case .cheapestChanged, .waTomorrow:
            return
        }
        if next != state { outcome.states[key] = next }
        guard let message else { return }
        decide(slot, station: change.slot, price: price, message: message,
               key: AlertDecision.key(alert: record.id, station: change.station, fuel: record.fuelType, version: poll.snapshot.version), poll: poll,
               memo: &memo, into: &outcome)
    }

    /// The price an alert with no reference yet measures from: the station's counted price in the snapshot before.
    func firstSeen(_ station: StationID, _ fuel: FuelType, in poll: AlertPoll) -> PriceTenths? {
        guard let previous = poll.previous, let entry = previous[station], let price = entry.price(of: fuel),
              previous.judge.standing(of: price, at: entry.station) == .counts else { return nil }
        return price.price
    }

    func decide(
        _ slot: Int, station: Int, price: PriceTenths, message: String, key: String, poll: AlertPoll, memo: inout AlertPollMemo,
        into outcome: inout AlertOutcome
    ) {
        let record = index.records[slot]
        let schedule = memo.schedule(record, zones: index.zones, now: poll.now)
        let entry = poll.snapshot.entries[station]
        outcome.decisions.append(AlertDecision(
            key: key, alertID: record.id, deviceID: record.deviceID, station: entry.id, fuel: record.fuelType, price: price,
            title: entry.station.name, message: message, deliverAfter: schedule.deliverAfter,
            summaryGroup: schedule.day.map { "daily.a\(record.id).\($0)" }, quietHours: schedule.day == nil ? record.quietHours : nil))
    }
}
