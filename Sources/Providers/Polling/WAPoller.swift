import Foundation
import Fuel

/// WA FuelWatch RSS (PROVIDERS.md §2): today's feed per product every `interval` (and at once when a new trading
/// day starts), joined into one full update; tomorrow's feed on `WATomorrowSchedule` (from 14:30 Perth until the
/// next trading day's prices are held or the 06:00 rollover); and the 06:00 rollover of tomorrow's prices into
/// today's.
///
/// A product that fails fails the whole step (a full update missing a fuel would drop that fuel everywhere).
/// An empty tomorrow feed means "not yet published", never "no stations": it is not merged. FuelWatch publishes
/// product by product, so tomorrow counts as held once every product priced today has published; until then only
/// the others are asked for again. Whether any are held is read from the store, so a restart that loaded none asks
/// on its first poll wherever in the evening it starts; one that loaded some asks once for every product (which
/// were published is not kept across a restart), then only for those still missing. A today feed dated a trading day that has ended is
/// refused by the merge (FuelWatch's caches lag after 06:00) and the provider shows `stale` until one is right.
///
/// The RSS carries no access facts, so with today's feeds the poller also fetches `/api/sites?fuelType=ULP` on its
/// first poll and then once every `sitesInterval`, and joins its facts onto the stations (`FuelWatchSiteFacts`).
/// That fetch never fails or delays the price poll: on failure the last good facts stay, and a note says so.
public actor WAPoller: ProviderPoller {
    public static let path = "/fuelwatch/fuelWatchRSS"
    public static let sitesPath = "/api/sites"
    /// One site list a day: opening facts change rarely, and FuelWatch is a public website.
    public static let sitesInterval: TimeInterval = 24 * 3600
    static let zone = WATradingDay.zone

    public nonisolated let provider = ProviderID.wa
    public nonisolated let interval: TimeInterval
    /// FuelWatch is public: no auth.
    let endpoint: ProviderEndpoint
    let products: [FuelWatchProduct]
    /// Pause between product requests, to be polite to a public website.
    let spacing: TimeInterval

    private var lastTodaySuccess: Date?
    private var lastTomorrowAttempt: Date?
    /// The products whose today feed held prices at the last today poll: each publishes a tomorrow feed.
    private var pricedToday: Set<FuelWatchProduct> = []
    /// The products whose tomorrow feed has been published for `day` (FuelWatch publishes them one by one).
    private var tomorrowPublished: (day: CalendarDay, products: Set<FuelWatchProduct>)?
    private var lastSitesAttempt: Date?
    private var siteFacts: FuelWatchSiteFacts?

    public init(
        client: ProviderClient, base: URL, interval: TimeInterval, timeout: TimeInterval,
        products: [FuelWatchProduct] = FuelWatchProduct.allCases, spacing: TimeInterval = 0.5
    ) {
        self.endpoint = ProviderEndpoint(client: client, auth: nil, base: base, timeout: timeout)
        self.interval = interval
        self.products = products
        self.spacing = spacing
    }

    public nonisolated var plan: String {
        "wa (every \(Int(interval))s, \(products.count) products, site facts daily; tomorrow from 14:30 Perth every "
            + "\(Int(WATomorrowSchedule.fastRetry / 60)) min until 18:00, then every \(Int(WATomorrowSchedule.slowRetry / 60)) min until held or 06:00)"
    }

    public func poll(at now: Date, sink: any ProviderSink) async -> PollOutcome {
        sink.rollOver(at: now)
        var notes: [String] = []
        var report: MergeReport?

        if todayDue(at: now) {
            switch await fetchAll(day: .today, now: now) {
            case .failure(let failure):
                return PollOutcome(failure.outcome, next: nextPoll(after: now, sink: sink))
            case .success(let parts):
                guard var joined = Adapted.combining(parts) else {
                    return PollOutcome(.failed(.implausible("no products configured"), request: "GET \(Self.path)"), next: nextPoll(after: now, sink: sink))
                }
                // The next step is decided as if today succeeded and published with the merge (one store update);
                // a rejection is handled by the runner.
                lastTodaySuccess = now
                pricedToday = Set(zip(products, parts).filter { !$0.1.update.prices.isEmpty }.map(\.0))
                // After the prices, never before: a slow or failing site list must not hold up or fail a price poll.
                if sitesDue(at: now) { notes.append(await refreshSiteFacts(now: now)) }
                if let siteFacts {
                    let facts = siteFacts.join(joined.update.stations)
                    joined.update.stations = facts.stations
                    notes.append("site facts on \(facts.matched) of \(facts.stations.count) stations")
                }
                let applied = sink.apply(joined.update, at: now)
                if !applied.isApplied { lastTodaySuccess = nil }
                report = applied
                if joined.tally.skipped > 0 { notes.append("skipped \(joined.tally)") }
            }
        }

        let target = WATradingDay.nextTradingDay(after: now)
        if WATomorrowSchedule.isDue(at: now, held: holdsTomorrow(sink, at: now), lastAttempt: lastTomorrowAttempt) {
            lastTomorrowAttempt = now
            // After some products have published, only the others are asked for again.
            let published = tomorrowPublished?.day == target ? tomorrowPublished!.products : []
            let asked = products.filter { !published.contains($0) }
            switch await fetchAll(day: .tomorrow, now: now, products: asked) {
            case .failure(let failure):
                if report == nil { return PollOutcome(failure.outcome, next: nextPoll(after: now, sink: sink)) }
                notes.append("tomorrow failed (\(failure.request): \(failure.error)); retrying")
            case .success(let parts):
                let records = parts.flatMap(\.update.tomorrow)
                let dated = records.filter { $0.day == target.description }
                if dated.isEmpty {
                    let other = Set(records.map(\.day)).sorted().first.map { "; the feed is dated \($0), not merged" } ?? ""
                    notes.append("tomorrow (\(target)) not yet published\(other)")
                } else {
                    // Tomorrow-only, never a full update: stations and today's prices stay as they are.
                    let update = ProviderUpdate(provider: .wa, stations: [], prices: [], tomorrow: dated, asOf: now, isDelta: true)
                    let tomorrowReport = sink.apply(update, at: now)
                    let late = sink.status(of: .wa)?.tomorrow.map { " \(PollerGroup.duration($0.delay)) after 14:30" } ?? ""
                    let newly = Set(zip(asked, parts).filter { $0.1.update.tomorrow.contains { $0.day == target.description } }.map(\.0))
                    tomorrowPublished = (target, published.union(newly))
                    let waiting = pricedToday.subtracting(tomorrowPublished!.products).map(\.fuel.rawValue).sorted()
                    let rest = waiting.isEmpty ? "" : "; still waiting for \(waiting.joined(separator: ", "))"
                    notes.append("tomorrow (\(target)) published: \(tomorrowReport.tomorrowPrices) prices, first held\(late)\(rest)")
                    if report == nil { report = tomorrowReport }
                }
            }
        }

        let next = nextPoll(after: now, sink: sink)
        if let report { return PollOutcome(.merged(report), next: next, notes: notes) }
        return PollOutcome(.idle(notes.isEmpty ? "nothing due" : notes.joined(separator: "; ")), next: next)
    }

    private func sitesDue(at now: Date) -> Bool {
        lastSitesAttempt.map { now.timeIntervalSince($0) >= Self.sitesInterval - 1 } ?? true
    }

    /// Fetches the site list and keeps its facts; on failure keeps the last good ones. Returns the poll note.
    private func refreshSiteFacts(now: Date) async -> String {
        lastSitesAttempt = now
        let request = endpoint.request(Self.sitesPath, query: [("fuelType", "ULP")])
        let label = "\(request.label)?fuelType=ULP"
        let read = await PollStep.read(request, label: label, fetch: endpoint.fetch) { body throws(AdapterError) in
            try FuelWatchSiteFacts.adapt(body, fetchedAt: now)
        }
        await pause()
        switch read {
        case .success(let facts):
            siteFacts = facts
            return "sites fetched: \(facts.count) with facts"
        case .failure(let failure):
            let kept = siteFacts.map { "keeping \($0.count) site facts from \($0.fetchedAt)" } ?? "no site facts yet"
            return "sites failed (\(failure.request): \(failure.error)); \(kept); next try in \(Int(Self.sitesInterval / 3600)) h"
        }
    }

    /// The polite pause between two requests (`spacing`); a cancelled sleep just ends it early.
    private func pause() async {
        guard spacing > 0 else { return }
        try? await Task.sleep(nanoseconds: UInt64(spacing * 1e9))
    }

    /// All products (or `only` these) for one day, in order, or the first failure.
    private func fetchAll(day: FuelWatchDay, now: Date, products only: [FuelWatchProduct]? = nil) async -> Result<[Adapted], PollFailure> {
        var parts: [Adapted] = []
        for (index, product) in (only ?? products).enumerated() {
            if index > 0, spacing > 0 {
                do { try await Task.sleep(nanoseconds: UInt64(spacing * 1e9)) } catch {
                    return .failure(PollFailure(error: .transport("cancelled"), request: "GET \(Self.path)"))
                }
            }
            var query = [("Product", String(product.rawValue))]
            if day == .tomorrow { query.append(("Day", "tomorrow")) }
            let request = endpoint.request(Self.path, query: query)
            let label = "\(request.label)?Product=\(product.rawValue)\(day == .tomorrow ? "&Day=tomorrow" : "")"
            let read = await PollStep.read(request, label: label, fetch: endpoint.fetch) { body throws(AdapterError) in
                try FuelWatchRSSAdapter.adapt(body, product: product, day: day, fetchedAt: now)
            }
            switch read {
            case .failure(let failure): return .failure(failure)
            case .success(let part): parts.append(part)
            }
        }
        return .success(parts)
    }

    /// Today's feeds are due every `interval`, and at once when a trading day has started since the last success.
    private func todayDue(at now: Date) -> Bool {
        guard let lastTodaySuccess else { return true }
        let dayStart = WATradingDay.start(of: WATradingDay.tradingDay(containing: now))
        return lastTodaySuccess < dayStart || now >= lastTodaySuccess.addingTimeInterval(interval - 1)
    }

    /// Whether the store holds tomorrow's prices for the next trading day at `now`, from every product priced today:
    /// one published before the others (ULP at 14:30, diesel at 14:40) is asked for again until all are.
    private func holdsTomorrow(_ sink: any ProviderSink, at now: Date) -> Bool {
        let target = WATradingDay.nextTradingDay(after: now)
        guard sink.status(of: .wa)?.tomorrow?.day == target else { return false }
        guard !pricedToday.isEmpty else { return true }
        guard let tomorrowPublished, tomorrowPublished.day == target else { return false }
        return pricedToday.isSubset(of: tomorrowPublished.products)
    }

    /// The earliest of: the next today poll, the next tomorrow attempt, and just after the next 06:00 rollover.
    func nextPoll(after now: Date, sink: any ProviderSink) -> Date {
        let today = (lastTodaySuccess ?? now).addingTimeInterval(interval)
        let tomorrow = WATomorrowSchedule.nextAttempt(after: now, held: holdsTomorrow(sink, at: now), lastAttempt: lastTomorrowAttempt)
        let rollover = WATradingDay.start(of: WATradingDay.nextTradingDay(after: now)).addingTimeInterval(1)
        return max(now.addingTimeInterval(1), min(today, tomorrow, rollover))
    }
}
