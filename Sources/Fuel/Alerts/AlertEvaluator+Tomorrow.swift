import Foundation

extension AlertEvaluator {
    /// `wa_tomorrow`, once per trading day: when the snapshot holds WA prices for the next trading day and their
    /// 14:30 Perth publication has passed (on WA's data clock), each watched station's counted price today against
    /// tomorrow's. A difference within 0.1 c/L says nothing.
    func evaluateTomorrow(_ poll: AlertPoll, memo: inout AlertPollMemo, into outcome: inout AlertOutcome) {
        let snapshot = poll.snapshot
        guard !index.tomorrowAlerts.isEmpty, let publication = snapshot.status(of: .wa)?.tomorrow else { return }
        let now = poll.clocks.now(for: ProviderID.wa, wall: poll.now)
        let day = WATradingDay.nextTradingDay(after: now)
        guard publication.day == day, WATradingDay.isPublished(now: now, hasTomorrowData: true) else { return }
        let text = day.description
        guard tomorrowAnnounced != text else { return }
        outcome.announcedTomorrow = text
        for id in index.tomorrowAlerts.sorted() {
            guard let alertSlot = index.slot(of: id).map(Int.init) else { continue }
            let fuel = index.records[alertSlot].fuelType
            for station in Set(index.stations(of: alertSlot)).sorted() {
                guard let slot = snapshot.slot(of: station), snapshot.entries[slot].station.state == .WA,
                      let price = snapshot.entries[slot].price(of: fuel), let tomorrow = price.tomorrow, tomorrow.day == text,
                      poll.counts(fuel, slot: slot),
                      abs(tomorrow.price.tenths - price.price.tenths) > PricePolicy.sameWithinTenths else { continue }
                decide(alertSlot, station: slot, price: tomorrow.price,
                       message: AlertText.tomorrow(fuel, today: price.price, tomorrow: tomorrow.price),
                       key: "a\(id).s\(station.rawValue).\(fuel.rawValue).d\(text)", poll: poll, memo: &memo, into: &outcome)
            }
        }
    }
}
