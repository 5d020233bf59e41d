import Foundation

/// The result of merging one provider update.
public struct MergeResult: Sendable {
    public var snapshot: Snapshot
    public var registry: StationRegistry
    public var report: MergeReport
}

extension Snapshot {
    /// Merges one provider's update into a new snapshot. Pure: same inputs, same output.
    ///
    /// - A full update replaces the provider's stations and prices; a delta changes only what it lists.
    ///   A full update without station records (prices only) keeps the provider's known stations and
    ///   replaces their prices.
    /// - Tomorrow prices are upserted onto the matching (station, fuel) price, or kept as the station's
    ///   `tomorrowOnly` when it has no price today for that fuel (closed today). A full update that lists
    ///   no tomorrow prices keeps the ones already held (they expire by `rollingOverTomorrow(at:)`).
    ///   An update with only tomorrow prices is merged as such, whether or not it is marked as a delta.
    /// - Rejected (the snapshot returned as it was; the poller records the provider `stale`): a full update with no records, or with no plausible
    ///   price, or speaking for fewer than half of the provider's currently known stations. The half rule
    ///   is skipped while the provider serves sample data, so live data always replaces samples.
    ///   An empty delta is normal (NSW `/prices/new` between changes) and counts as a success.
    /// - Prices outside `PricePolicy.kept` (tomorrow's: `PricePolicy.plausible`) are dropped one by one.
    /// - `source: .sample` marks the provider `sample`; it is ignored if the provider already serves live
    ///   data. A live delta onto sample data is applied but the provider stays `sample` until a full
    ///   live update replaces the samples.
    /// - The provider's `asOf` becomes the update's (for a delta: the later of the two), never later than `now`.
    /// - Time is judged at `now` (the merge instant: the wall clock for live data, the capture instant for a
    ///   sample): a full update dated a trading day that has already ended is rejected as stale (FuelWatch's
    ///   caches serve yesterday's feed for a while after 06:00), and tomorrow records for any day but the next
    ///   trading day are dropped. The provider's `tomorrow` says which next-day prices it holds and since when.
    /// - What the merge publishes is stamped `stamp(at: now)` (the new prices' `seenAt`, the snapshot's `changedAt`):
    ///   never at or before this snapshot's own `changedAt`.
    /// - Ids come from `registry`, so a station keeps its id across removals and the sample/live swap; a known site
    ///   under a new key (another source, a coordinate edit) keeps its id too (`resolvingIdentities`).
    public func merging(
        _ update: ProviderUpdate, registry: StationRegistry, source: DataSource = .live, at now: Date
    ) -> MergeResult {
        let provider = update.provider
        // A known site under a new key keeps its id (see `resolvingIdentities`); the aliases are kept only if the
        // merge is applied.
        var resolvedRegistry = registry
        let update = resolvingIdentities(of: update, registry: &resolvedRegistry)
        let previous = status(of: provider)
        var report = MergeReport(provider: provider, source: source, isDelta: update.isDelta, outcome: .applied)

        if source == .sample, let previous, previous.source == .live, previous.stationCount > 0 {
            report.outcome = .ignored(reason: "sample data offered while live data is served")
            return MergeResult(snapshot: self, registry: registry, report: report)
        }

        let nextTradingDay = WATradingDay.nextTradingDay(after: now)
        let input = MergeInput(update, tomorrowDay: nextTradingDay.description, now: now)
        report.rejectedOutliers = input.outliers
        report.orphanPrices = input.foreign
        report.misdatedTomorrow = input.misdatedTomorrow
        report.futureRows = input.futureRows
        report.truncatedTexts = input.truncatedTexts
        let known = entries.lazy.filter { $0.station.provider == provider }.count
        let tomorrowOnly = update.stations.isEmpty && update.prices.isEmpty && !update.tomorrow.isEmpty

        if tomorrowOnly && input.tomorrow.isEmpty && input.misdatedTomorrow > 0 {
            let days = Set(update.tomorrow.map(\.day)).sorted().joined(separator: ", ")
            report.outcome = .ignored(reason: "tomorrow feed dated \(days), not the next trading day \(nextTradingDay)")
            return MergeResult(snapshot: self, registry: registry, report: report)
        }

        if !update.isDelta && !tomorrowOnly {
            // A half list is refused as one before its newest price (gone with the stations left out) is judged old.
            if let refusal = staleness(of: update, at: now)
                ?? implausibility(of: input, update: update, known: known, previous: previous, registry: resolvedRegistry, at: now)
                ?? regression(of: update, previous: previous, source: source)
            {
                report.outcome = .rejected(reason: refusal.description)
                return MergeResult(snapshot: remembering(refusal, of: provider, previous: previous, at: now), registry: registry, report: report)
            }
        }

        // Live data replacing samples (or a first feed) replaces them at once; otherwise an unlisted station goes
        // only after several full feeds in a row agree.
        var builder = MergeBuilder(
            snapshot: self, provider: provider, registry: resolvedRegistry, now: now, stamp: stamp(at: now),
            absences: previous?.pendingRemoval ?? [:], absentSince: previous?.pendingSince ?? [:], removesAtOnce: previous == nil || previous?.source == .sample || source == .sample,
            keepsNewerPrices: previous?.source == .live && source == .live)
        if update.isDelta || tomorrowOnly {
            builder.applyDelta(input)
        } else {
            builder.applyFull(input, replacesTomorrow: !update.tomorrow.isEmpty, feedAsOf: input.newestPriceAt ?? update.asOf)
        }
        builder.report(into: &report)
        report.isTomorrowOnly = tomorrowOnly

        var status = previous ?? .initial(provider, source: source)
        let keepsSample = (update.isDelta || tomorrowOnly) && previous?.source == .sample
        status.source = keepsSample ? .sample : source
        status.tomorrow = Self.tomorrowHeld(in: builder.providerEntries, previous: previous?.tomorrow, at: now)
        if !update.isDelta && !tomorrowOnly && !update.stations.isEmpty {
            status.pendingRemoval = builder.pendingRemoval.isEmpty ? nil : builder.pendingRemoval
            status.pendingSince = builder.pendingSince.isEmpty ? nil : builder.pendingSince
        }
        if !tomorrowOnly {
            // A future asOf (a mis-dated price) would misplace trend points and prune history early; the newest
            // row kept stands for it, not the merge instant, or the corrected feed after it looks hours old.
            let asOf = update.asOf > now ? min(input.newestPriceAt ?? now, now) : update.asOf
            status.asOf = update.isDelta ? max(status.asOf ?? asOf, asOf) : asOf
            status.describedDay = update.isDelta ? update.describedDay.map { max(status.describedDay ?? $0, $0) } : update.describedDay
            if !update.isDelta { status.fullFeedAt = asOf }
            status.staleSince = nil
        }
        if !update.isDelta && !tomorrowOnly {
            status.growthRejections = nil
            status.shrinkSince = nil
        }
        status.stationCount = builder.providerEntries.count
        status.priceCount = builder.providerEntries.reduce(0) { $0 + $1.prices.count }

        // A feed that changes no station keeps the very same entries, so what is derived from them can tell.
        let merged = builder.changesNoEntry ? entries : entries.filter { $0.station.provider != provider } + builder.providerEntries
        let snapshot = Snapshot(
            version: version + 1, changedAt: builder.stamp, entries: merged, statuses: statuses.filter { $0.provider != provider } + [status])
        return MergeResult(snapshot: snapshot, registry: builder.registry, report: report)
    }

    /// A rejected feed leaves the data as it was. Remembered, in the status without a new version (ETags and
    /// `Last-Modified` stay): the count of feeds in a row that showed a growth, and since when feeds have shrunk a fuel.
    private func remembering(_ refusal: MergeRefusal, of provider: ProviderID, previous: ProviderStatus?, at now: Date) -> Snapshot {
        guard var status = previous else { return self }
        status.growthRejections = refusal.isGrowth ? (status.growthRejections ?? 0) + 1 : nil
        if refusal.isFuelShrink, status.shrinkSince == nil { status.shrinkSince = now }
        guard status != previous else { return self }
        return Snapshot(version: version, changedAt: changedAt, entries: entries, statuses: statuses.filter { $0.provider != provider } + [status])
    }

    /// Why a day-dated full update is stale at `now`, or nil.
    private func staleness(of update: ProviderUpdate, at now: Date) -> MergeRefusal? {
        guard let day = update.tradingDay else { return nil }
        let current = WATradingDay.tradingDay(containing: now)
        guard day < current else { return nil }
        return .stale(day: "\(day)", current: "\(current)")
    }

    /// Why a live full update is an old copy of the feed (its newest price well behind the newest held), or nil.
    /// Samples are judged by their own capture instants, never against live data.
    private func regression(of update: ProviderUpdate, previous: ProviderStatus?, source: DataSource) -> MergeRefusal? {
        guard source == .live, let previous, previous.source == .live, let held = previous.asOf, !update.prices.isEmpty,
              update.asOf < held.addingTimeInterval(-FeedPolicy.maxFeedRegression) else { return nil }
        return .older(newest: update.asOf, held: held)
    }

    /// The next-day prices `entries` hold: the same publication as before when the day is unchanged.
    static func tomorrowHeld(in entries: [StationEntry], previous: TomorrowPublication?, at now: Date) -> TomorrowPublication? {
        var newest: CalendarDay?
        for entry in entries {
            for tomorrow in entry.prices.compactMap(\.tomorrow) + entry.tomorrowOnly.map(\.tomorrow) {
                guard let day = CalendarDay(tomorrow.day) else { continue }
                newest = max(newest ?? day, day)
            }
        }
        guard let newest else { return nil }
        if let previous, previous.day == newest { return previous }
        return TomorrowPublication(day: newest, heldSince: now)
    }

    private func shrunkFuel(of input: MergeInput) -> MergeRefusal? {
        guard let provider = input.provider else { return nil }
        var held: [FuelType: Int] = [:]
        for entry in entries where entry.station.provider == provider {
            for price in entry.prices { held[price.fuel, default: 0] += 1 }
        }
        let priced = input.pricedStations
        for (fuel, known) in held.sorted(by: { $0.key.ordinal < $1.key.ordinal }) where known >= FeedPolicy.minimumStationsForFuelShrink {
            let count = priced[fuel] ?? 0
            if count * 2 < known { return .fuelShrank(fuel: fuel, priced: count, known: known) }
        }
        return nil
    }

    private func implausibility(
        of input: MergeInput, update: ProviderUpdate, known: Int, previous: ProviderStatus?, registry: StationRegistry, at now: Date
    ) -> MergeRefusal? {
        if update.stations.isEmpty && update.prices.isEmpty { return .empty }
        if input.prices.isEmpty { return .noPlausiblePrices(outliers: input.outliers) }
        let servesSample = previous?.source == .sample
        if !servesSample && input.stationCount * 2 < known {
            return .shrank(stations: input.stationCount, known: known)
        }
        // A list of every station with prices for a few (a partial answer, one product's empty channel) would
        // remove the rest one fuel at a time.
        // A fuel gone for good (a channel closed, a code renamed) is taken once feeds have shown it for a day.
        if !servesSample, let shrunk = shrunkFuel(of: input) {
            let since = previous?.shrinkSince
            if since.map({ now.timeIntervalSince($0) < FeedPolicy.minimumAbsence }) ?? true { return shrunk }
        }
        // Ghost stations must not get in, or every real feed after them looks like "fewer than half".
        let allowed = FeedPolicy.growthAllowed(known: known)
        // Only keys the registry has never seen are growth: stations returning under their own ids are not.
        let unseen = input.stationOrder.lazy.filter { registry.id(for: $0) == nil && registry.aliasedID(for: $0) == nil }.count
        if !servesSample, known > 0, input.stationCount > known + allowed, unseen > allowed {
            let confirmed = (previous?.growthRejections ?? 0) >= FeedPolicy.confirmationsForGrowth - 1
            if !confirmed { return .growth(stations: input.stationCount, known: known, allowed: allowed) }
        }
        return nil
    }
}
