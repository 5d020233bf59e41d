import Foundation

extension Snapshot {
    /// Applies the WA rule that tomorrow's prices become today's at 06:00 Perth time.
    ///
    /// For WA stations, every tomorrow price whose trading day has started by `now` replaces the current
    /// price, with `updatedAt` set to the start of that trading day (unless the current price is newer,
    /// in which case the tomorrow price is simply dropped); a station's `tomorrowOnly` price (no price the day
    /// before) becomes its price from that instant. The providers concerned get `asOf` moved up
    /// to that instant so trend points land on the new day. Returns `self` unchanged (same version)
    /// when nothing rolls over, so callers can call it often.
    ///
    /// Sample data is a recording frozen in time: its tomorrow prices stay tomorrow's whatever the clock says.
    public func rollingOverTomorrow(at now: Date) -> Snapshot {
        let today = WATradingDay.tradingDay(containing: now)
        let stamp = stamp(at: now)
        let frozen = Set(statuses.filter { $0.source == .sample }.map(\.provider))
        var rolled: [ProviderID: Date] = [:]
        var changed = false
        var newEntries = entries
        for index in newEntries.indices where newEntries[index].station.state == .WA && !frozen.contains(newEntries[index].station.provider) {
            var entry = newEntries[index]
            var touched = false
            for priceIndex in entry.prices.indices {
                guard let tomorrow = entry.prices[priceIndex].tomorrow, let day = CalendarDay(tomorrow.day),
                    day <= today
                else { continue }
                let start = WATradingDay.start(of: day)
                if start > entry.prices[priceIndex].updatedAt {
                    entry.prices[priceIndex].price = tomorrow.price
                    entry.prices[priceIndex].updatedAt = start
                    // A promoted price is a change a syncing client must see.
                    entry.prices[priceIndex].seenAt = max(stamp, start)
                    let provider = entry.station.provider
                    rolled[provider] = max(rolled[provider] ?? start, start)
                }
                entry.prices[priceIndex].tomorrow = nil
                touched = true
            }
            // A station with no price today (closed) has one from the start of the day its tomorrow price is for.
            for only in entry.tomorrowOnly {
                guard let day = CalendarDay(only.tomorrow.day), day <= today else { continue }
                let start = WATradingDay.start(of: day)
                entry.tomorrowOnly.removeAll { $0.fuel == only.fuel }
                touched = true
                guard entry.price(of: only.fuel) == nil else { continue }
                entry.prices.append(StationPrice(fuel: only.fuel, price: only.tomorrow.price, updatedAt: start, seenAt: max(stamp, start)))
                let provider = entry.station.provider
                rolled[provider] = max(rolled[provider] ?? start, start)
            }
            if touched {
                newEntries[index] = StationEntry(station: entry.station, prices: entry.prices, tomorrowOnly: entry.tomorrowOnly)
                changed = true
            }
        }
        guard changed else { return self }
        let newStatuses = statuses.map { status in
            var status = status
            if !frozen.contains(status.provider), let held = status.tomorrow, held.day <= today { status.tomorrow = nil }
            guard let start = rolled[status.provider] else { return status }
            status.asOf = max(status.asOf ?? start, start)
            return status
        }
        return Snapshot(version: version + 1, changedAt: stamp, entries: newEntries, statuses: newStatuses)
    }
}
