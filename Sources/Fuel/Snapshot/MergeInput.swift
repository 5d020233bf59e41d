/// A provider update cleaned for merging: outliers dropped price by price, records of other providers
/// dropped, duplicates resolved (the last station record wins; for prices the newest `updatedAt` wins).
struct MergeInput {
    /// Station keys in the order the update lists them (the order new ids are assigned in).
    var stationOrder: [StationKey] = []
    var stations: [StationKey: StationRecord] = [:]
    var prices: [StationKey: [FuelType: PriceRecord]] = [:]
    var tomorrow: [StationKey: [FuelType: TomorrowPriceRecord]] = [:]
    var outliers = 0
    var foreign = 0
    /// Tomorrow records for a day other than the next trading day, dropped.
    var misdatedTomorrow = 0

    /// `tomorrowDay` is the only day tomorrow records may be for (the next trading day at the merge instant).
    init(_ update: ProviderUpdate, tomorrowDay: String) {
        let provider = update.provider
        for record in update.stations {
            guard record.key.provider == provider else {
                foreign += 1
                continue
            }
            if stations.updateValue(record, forKey: record.key) == nil { stationOrder.append(record.key) }
        }
        for record in update.prices {
            guard record.station.provider == provider else {
                foreign += 1
                continue
            }
            guard PricePolicy.plausible.contains(record.price) else {
                outliers += 1
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

    /// Stations the update speaks for: its station records, or for a prices-only update the priced stations.
    var stationCount: Int { stations.isEmpty ? prices.count : stations.count }
}
