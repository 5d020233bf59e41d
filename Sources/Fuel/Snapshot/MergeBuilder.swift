import Foundation

/// Builds one provider's new entries from its old entries and a cleaned update, counting what changed.
struct MergeBuilder {
    let provider: ProviderID
    let now: Date
    /// What a new or changed price is stamped as first seen (`Snapshot.stamp(at:)`).
    let stamp: Date
    var registry: StationRegistry
    /// The provider's entries before the merge, by key.
    private let old: [StationKey: StationEntry]
    private let oldOrder: [StationKey]
    private(set) var providerEntries: [StationEntry] = []
    /// The only day a tomorrow price may be for at `now`: one held for another day (a sample's, kept across the
    /// switch to live data under the same station) is dropped rather than carried on.
    private let tomorrowDay: String

    /// Full feeds in a row each unlisted station has been missing from (by source id), before this merge and after.
    private let absences: [String: Int]
    private(set) var pendingRemoval: [String: Int] = [:]
    /// When each unlisted station was first missed, before this merge and after.
    private let absentSince: [String: Date]
    private(set) var pendingSince: [String: Date] = [:]
    /// Whether an unlisted station goes at once (replacing sample data) or only after a stable majority of feeds.
    private let removesAtOnce: Bool
    /// Whether a held price dated after the feed's row for it stays (live data over live data): an older copy of
    /// the feed, or a full list behind the deltas already merged, never takes a price back in time.
    private let keepsNewerPrices: Bool

    /// Entries of a full feed equal to the old ones, or kept while unlisted (the old value either way).
    private var unchangedEntries = 0
    private var added = 0, updated = 0, removed = 0, heldMoves = 0, keptOnOutlier = 0, keptNewer = 0
    private var pricesChanged = 0, pricesRemoved = 0, orphans = 0, tomorrowCount = 0
    private var states: Set<AustralianState> = []

    init(
        snapshot: Snapshot, provider: ProviderID, registry: StationRegistry, now: Date, stamp: Date, absences: [String: Int] = [:],
        absentSince: [String: Date] = [:], removesAtOnce: Bool = true, keepsNewerPrices: Bool = false
    ) {
        self.keepsNewerPrices = keepsNewerPrices
        self.absentSince = absentSince
        self.tomorrowDay = WATradingDay.nextTradingDay(after: now).description
        self.provider = provider
        self.now = now
        self.stamp = stamp
        self.registry = registry
        self.absences = absences
        self.removesAtOnce = removesAtOnce
        var old: [StationKey: StationEntry] = [:]
        var order: [StationKey] = []
        for entry in snapshot.entries where entry.station.provider == provider {
            old[entry.station.key] = entry
            order.append(entry.station.key)
        }
        self.old = old
        self.oldOrder = order
        states = Set(old.values.map(\.station.state))
    }

    /// Our id for `key`: the registry's, else (a snapshot restored without registry) the old entry's id
    /// adopted into the registry, else a new one.
    private mutating func id(for key: StationKey) -> StationID {
        if let id = registry.id(for: key) { return id }
        if let existing = old[key]?.station.id, registry.adopt(key, as: existing) { return existing }
        return registry.assign(key)
    }

    private mutating func station(for key: StationKey, record: StationRecord?) -> Station? {
        let previous = old[key]?.station
        guard var record else { return previous }
        // A kerb does not move kilometres between two polls, nor off the globe: keep the known location, take the
        // rest. A new station with no usable location is left out (every map, distance and grid reads it).
        if !record.location.isValid {
            guard let previous else { return nil }
            record.location = previous.location
            heldMoves += 1
        } else if let previous, previous.location.isValid, previous.location.distanceKm(to: record.location) > FeedPolicy.maxMoveKm {
            record.location = previous.location
            heldMoves += 1
        }
        let station = Station(id: id(for: key), record: record)
        states.insert(station.state)
        guard let previous else {
            added += 1
            return station
        }
        guard previous == station else {
            updated += 1
            return station
        }
        // The known value, not the feed's equal copy: what follows compares and keeps one set of strings.
        return previous
    }

    /// `feedAsOf`: when the feed was made (its newest row); held live prices set after it stay (`keepsNewerPrices`).
    mutating func applyFull(_ input: MergeInput, replacesTomorrow: Bool, feedAsOf: Date = .distantFuture) {
        let keys = input.stations.isEmpty ? oldOrder : input.stationOrder
        var listed = Set<StationKey>()
        for key in keys {
            guard let station = station(for: key, record: input.stations[key]) else { continue }
            listed.insert(key)
            let before = old[key]
            var incoming = input.prices[key] ?? [:]
            var prices: [StationPrice] = []
            // A refused new row (an outlier, a future date) leaves the last good price in place.
            for fuel in input.keptFuels[key] ?? [] where incoming[fuel] == nil {
                guard let kept = before?.price(of: fuel) else { continue }
                prices.append(kept)
                keptOnOutlier += 1
                incoming[fuel] = nil
            }
            for (fuel, record) in incoming {
                let previous = before?.price(of: fuel)
                let tomorrow =
                    replacesTomorrow
                    ? input.tomorrow[key]?[fuel].map { TomorrowPrice(price: $0.price, day: $0.day) }
                    : carried(before?.tomorrow(of: fuel))
                if replacesTomorrow && tomorrow != nil { tomorrowCount += 1 }
                if var newer = keptIfNewer(previous, than: record) {
                    newer.tomorrow = tomorrow
                    prices.append(newer)
                    continue
                }
                if previous?.price != record.price { pricesChanged += 1 }
                prices.append(StationPrice(
                    fuel: fuel, price: record.price, updatedAt: record.updatedAt, tomorrow: tomorrow,
                    seenAt: seenAt(previous, record)))
            }
            if let before {
                var kept = Set(prices.map(\.fuel))
                // A price set after the feed was made (a delta merged since) is not one the feed could list.
                for held in before.prices where keepsNewerPrices && !kept.contains(held.fuel) && held.updatedAt > feedAsOf {
                    prices.append(held)
                    kept.insert(held.fuel)
                    keptNewer += 1
                }
                pricesRemoved += before.prices.lazy.filter { incoming[$0.fuel] == nil && !kept.contains($0.fuel) }.count
            }
            let priced = Set(prices.map(\.fuel))
            var tomorrowOnly: [TomorrowOnlyPrice] = []
            if replacesTomorrow {
                for (fuel, record) in input.tomorrow[key] ?? [:] where !priced.contains(fuel) {
                    tomorrowOnly.append(TomorrowOnlyPrice(fuel: fuel, tomorrow: TomorrowPrice(price: record.price, day: record.day)))
                    tomorrowCount += 1
                }
            } else {
                tomorrowOnly = (before?.tomorrowOnly ?? []).filter { !priced.contains($0.fuel) && carried($0.tomorrow) != nil }
            }
            let entry = StationEntry(station: station, prices: prices, tomorrowOnly: tomorrowOnly)
            if let before, before == entry {
                providerEntries.append(before)
                unchangedEntries += 1
            } else {
                providerEntries.append(entry)
            }
        }
        for (key, fuels) in input.prices where !listed.contains(key) { orphans += fuels.count }
        if replacesTomorrow {
            for (key, fuels) in input.tomorrow where !listed.contains(key) { orphans += fuels.count }
        }
        for key in oldOrder where !listed.contains(key) {
            let missing = (absences[key.sourceID] ?? 0) + 1
            let since = absentSince[key.sourceID] ?? now
            let goneLongEnough = now.timeIntervalSince(since) >= FeedPolicy.minimumAbsence
            if removesAtOnce || (missing >= FeedPolicy.absencesBeforeRemoval && goneLongEnough) {
                removed += 1
                pricesRemoved += old[key]?.prices.count ?? 0
            } else if let entry = old[key] {
                // Kept as it was until enough feeds in a row agree it is gone.
                pendingRemoval[key.sourceID] = missing
                pendingSince[key.sourceID] = since
                providerEntries.append(entry)
                unchangedEntries += 1
            }
        }
    }

    /// Whether the provider's entries are exactly the old ones: every one kept as it was and none gone.
    var changesNoEntry: Bool { unchangedEntries == old.count && providerEntries.count == old.count }

    /// The held price, when it is dated after the feed's row and live data is merged over live data.
    private mutating func keptIfNewer(_ held: StationPrice?, than record: PriceRecord) -> StationPrice? {
        guard keepsNewerPrices, let held, held.updatedAt > record.updatedAt else { return nil }
        keptNewer += 1
        return held
    }

    mutating func applyDelta(_ input: MergeInput) {
        var entries = old
        var order = oldOrder
        for key in input.stationOrder {
            guard let station = station(for: key, record: input.stations[key]) else { continue }
            if let entry = entries[key] {
                entries[key] = StationEntry(station: station, prices: entry.prices, tomorrowOnly: entry.tomorrowOnly)
            } else {
                entries[key] = StationEntry(station: station, prices: [])
                order.append(key)
            }
        }
        for (key, fuels) in input.prices {
            guard var entry = entries[key] else {
                orphans += fuels.count
                continue
            }
            for (fuel, record) in fuels {
                let previous = entry.price(of: fuel)
                if keptIfNewer(previous, than: record) != nil { continue }
                if previous?.price != record.price { pricesChanged += 1 }
                let price = StationPrice(
                    fuel: fuel, price: record.price, updatedAt: record.updatedAt, tomorrow: carried(entry.tomorrow(of: fuel)),
                    seenAt: seenAt(previous, record))
                entry.prices.removeAll { $0.fuel == fuel }
                entry.prices.append(price)
                entry.tomorrowOnly.removeAll { $0.fuel == fuel }
            }
            entries[key] = StationEntry(station: entry.station, prices: entry.prices, tomorrowOnly: entry.tomorrowOnly)
        }
        for (key, fuels) in input.tomorrow {
            guard var entry = entries[key] else {
                orphans += fuels.count
                continue
            }
            for (fuel, record) in fuels {
                let tomorrow = TomorrowPrice(price: record.price, day: record.day)
                tomorrowCount += 1
                if let index = entry.prices.firstIndex(where: { $0.fuel == fuel }) {
                    entry.prices[index].tomorrow = tomorrow
                } else {
                    entry.tomorrowOnly.removeAll { $0.fuel == fuel }
                    entry.tomorrowOnly.append(TomorrowOnlyPrice(fuel: fuel, tomorrow: tomorrow))
                }
            }
            entries[key] = StationEntry(station: entry.station, prices: entry.prices, tomorrowOnly: entry.tomorrowOnly)
        }
        providerEntries = order.compactMap { entries[$0] }
    }

    private func carried(_ tomorrow: TomorrowPrice?) -> TomorrowPrice? {
        tomorrow?.day == tomorrowDay ? tomorrow : nil
    }

    /// An unchanged price keeps the instant we first saw it; a new or changed one is seen now (`stamp`).
    private func seenAt(_ previous: StationPrice?, _ record: PriceRecord) -> Date {
        if let previous, previous.price == record.price, previous.updatedAt == record.updatedAt {
            return previous.seenAt ?? previous.updatedAt
        }
        return stamp
    }

    func report(into report: inout MergeReport) {
        report.stationsAdded = added
        report.stationsUpdated = updated
        report.stationsRemoved = removed
        report.stationsPendingRemoval = pendingRemoval.count
        report.heldMoves = heldMoves
        report.keptOnOutlier = keptOnOutlier
        report.keptNewer = keptNewer
        report.pricesChanged = pricesChanged
        report.pricesRemoved = pricesRemoved
        report.orphanPrices += orphans
        report.tomorrowPrices = tomorrowCount
        report.affectedStates = states
    }
}
