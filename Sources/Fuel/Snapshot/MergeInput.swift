import Foundation

/// A provider update cleaned for merging: outliers dropped price by price, records of other providers
/// dropped, duplicates resolved (the last station record wins; for prices the newest `updatedAt` wins).
struct MergeInput {
    var provider: ProviderID?
    /// Station keys in the order the update lists them (the order new ids are assigned in).
    var stationOrder: [StationKey] = []
    var stations: [StationKey: StationRecord] = [:]
    var prices: [StationKey: [FuelType: PriceRecord]] = [:]
    var tomorrow: [StationKey: [FuelType: TomorrowPriceRecord]] = [:]
    var outliers = 0
    var foreign = 0
    /// Tomorrow records for a day other than the next trading day, dropped.
    var misdatedTomorrow = 0
    /// Price rows dated in the future (past `FeedPolicy.maxFutureSkew`), dropped.
    var futureRows = 0
    /// Station text fields cut to `FeedPolicy.maxTextLength`.
    var truncatedTexts = 0
    /// Fuels whose new row was refused (an outlier, or dated in the future), by station: their last good price stays.
    var keptFuels: [StationKey: Set<FuelType>] = [:]

    /// `tomorrowDay` is the only day tomorrow records may be for (the next trading day at the merge instant); rows
    /// dated after `now` (plus `FeedPolicy.maxFutureSkew`) are refused.
    init(_ update: ProviderUpdate, tomorrowDay: String, now: Date) {
        let provider = update.provider
        self.provider = provider
        let latest = now.addingTimeInterval(FeedPolicy.maxFutureSkew)
        for record in update.stations {
            guard record.key.provider == provider else {
                foreign += 1
                continue
            }
            let capped = cap(record)
            if stations.updateValue(capped, forKey: record.key) == nil { stationOrder.append(record.key) }
        }
        for record in update.prices {
            guard record.station.provider == provider else {
                foreign += 1
                continue
            }
            guard record.updatedAt <= latest else {
                futureRows += 1
                keptFuels[record.station, default: []].insert(record.fuel)
                continue
            }
            guard PricePolicy.kept.contains(record.price) else {
                outliers += 1
                keptFuels[record.station, default: []].insert(record.fuel)
                continue
            }
            if let existing = prices[record.station]?[record.fuel], existing.updatedAt > record.updatedAt { continue }
            prices[record.station, default: [:]][record.fuel] = record
        }
        for record in update.tomorrow {
            guard record.station.provider == provider else {
                foreign += 1
                continue
            }
            guard record.day == tomorrowDay else {
                misdatedTomorrow += 1
                continue
            }
            guard PricePolicy.plausible.contains(record.price) else {
                outliers += 1
                continue
            }
            tomorrow[record.station, default: [:]][record.fuel] = record
        }
    }

    var priceCount: Int { prices.values.reduce(0) { $0 + $1.count } }

    /// When the newest price kept was set (rows dated in the future are not kept).
    var newestPriceAt: Date? { prices.values.lazy.flatMap(\.values).map(\.updatedAt).max() }

    /// How many stations the update prices each fuel at, counting a refused row (its last good price stays).
    var pricedStations: [FuelType: Int] {
        var counts: [FuelType: Int] = [:]
        for key in Set(prices.keys).union(keptFuels.keys) {
            for fuel in Set(prices[key].map { Array($0.keys) } ?? []).union(keptFuels[key] ?? []) { counts[fuel, default: 0] += 1 }
        }
        return counts
    }

    private mutating func cap(_ record: StationRecord) -> StationRecord {
        var capped = record
        capped.name = FeedPolicy.capped(record.name, FeedPolicy.maxTextLength)
        capped.brand = FeedPolicy.capped(record.brand, FeedPolicy.maxTextLength)
        capped.address = FeedPolicy.capped(record.address, FeedPolicy.maxTextLength)
        capped.suburb = FeedPolicy.capped(record.suburb, FeedPolicy.maxTextLength)
        capped.postcode = record.postcode.map { FeedPolicy.capped($0, FeedPolicy.maxPostcodeLength) }
        if capped != record { truncatedTexts += 1 }
        return capped
    }

    /// Stations the update speaks for: its station records, or for a prices-only update the priced stations.
    var stationCount: Int { stations.isEmpty ? prices.count : stations.count }
}
