import Foundation
import Fuel

extension SnapshotCodec {
    /// The snapshot without the records a load would refuse (`LoadLimits`), so one odd value taken from a provider
    /// can never make the whole saved file unloadable at the next start. `dropped` counts stations and prices left out.
    static func persistable(_ snapshot: Snapshot) -> (snapshot: Snapshot, dropped: Int) {
        var dropped = 0
        var entries: [StationEntry] = []
        entries.reserveCapacity(snapshot.entries.count)
        for entry in snapshot.entries {
            guard isLoadable(entry.station) else {
                dropped += 1
                continue
            }
            let prices = entry.prices.filter(isLoadable).prefix(LoadLimits.maxPricesPerStation)
            let tomorrowOnly = entry.tomorrowOnly.filter { isLoadable($0.tomorrow) }.prefix(LoadLimits.maxPricesPerStation)
            dropped += entry.prices.count - prices.count + entry.tomorrowOnly.count - tomorrowOnly.count
            let whole = prices.count == entry.prices.count && tomorrowOnly.count == entry.tomorrowOnly.count
            entries.append(whole ? entry : StationEntry(station: entry.station, prices: Array(prices), tomorrowOnly: Array(tomorrowOnly)))
        }
        guard dropped > 0 else { return (snapshot, 0) }
        return (Snapshot(version: snapshot.version, changedAt: snapshot.changedAt, entries: entries, statuses: snapshot.statuses), dropped)
    }

    static func isLoadable(_ station: Station) -> Bool {
        let texts = [station.sourceID, station.name, station.brand, station.address, station.suburb, station.postcode ?? ""]
        return (try? LoadLimits.check(id: station.id.rawValue)) != nil && (try? LoadLimits.check(station.location)) != nil
            && texts.allSatisfy { $0.utf8.count <= LoadLimits.maxStringBytes }
    }

    static func isLoadable(_ price: StationPrice) -> Bool {
        let instants = [price.updatedAt, price.seenAt].compactMap { $0?.timeIntervalSince1970 }
        guard LoadLimits.prices.contains(price.price.tenths), instants.allSatisfy(LoadLimits.instants.contains) else { return false }
        guard let tomorrow = price.tomorrow else { return true }
        return isLoadable(tomorrow)
    }

    static func isLoadable(_ tomorrow: TomorrowPrice) -> Bool {
        LoadLimits.prices.contains(tomorrow.price.tenths) && CalendarDay(tomorrow.day) != nil
            && tomorrow.day.utf8.count <= LoadLimits.maxStringBytes
    }
}
