import Foundation
import Fuel

/// WA FuelWatch RSS (PROVIDERS.md §2): today's feed per product every `interval`, joined into one full update;
/// tomorrow's feed from 14:30 Perth every `tomorrowRetry` until published (non-empty, dated the next trading day)
/// or 16:00; and the 06:00 Perth rollover of tomorrow's prices into today's.
///
/// A product that fails fails the whole step (a full update missing a fuel would drop that fuel everywhere).
/// An empty tomorrow feed means "not yet published", never "no stations": it is not merged.
public actor WAPoller: ProviderPoller {
    public static let path = "/fuelwatch/fuelWatchRSS"
    static let zone = WATradingDay.zone
    /// Give up on tomorrow's feed this long after its 14:30 publication time (16:00).
    static let tomorrowWindow: TimeInterval = 90 * 60

    public nonisolated let provider = ProviderID.wa
    public nonisolated let interval: TimeInterval
    let tomorrowRetry: TimeInterval
    let client: ProviderClient
    let base: URL
    let timeout: TimeInterval
    let products: [FuelWatchProduct]
    /// Pause between product requests, to be polite to a public website.
    let spacing: TimeInterval

    private var lastTodaySuccess: Date?
    private var lastTomorrowAttempt: Date?
    /// The trading day whose tomorrow prices are merged.
    private var tomorrowDone: CalendarDay?

    public init(
        client: ProviderClient, base: URL, interval: TimeInterval, timeout: TimeInterval, tomorrowRetry: TimeInterval = 600,
        products: [FuelWatchProduct] = FuelWatchProduct.allCases, spacing: TimeInterval = 0.5
    ) {
        self.client = client
        self.base = base
        self.interval = interval
        self.timeout = timeout
        self.tomorrowRetry = tomorrowRetry
        self.products = products
        self.spacing = spacing
    }

    public nonisolated var plan: String {
        "wa (every \(Int(interval))s, \(products.count) products; tomorrow from 14:30 Perth every \(Int(tomorrowRetry))s until published or 16:00)"
    }

    public func poll(at now: Date, sink: any ProviderSink) async -> PollOutcome {
        sink.rollOver(at: now)
        var notes: [String] = []
        var report: MergeReport?
        let todayDue = lastTodaySuccess.map { now >= $0.addingTimeInterval(interval - 1) } ?? true

        if todayDue {
            switch await fetchAll(day: .today, now: now) {
            case .failure(let failure):
                return PollOutcome(failure.outcome, next: nextPoll(after: now))
            case .success(let parts):
                guard let joined = Adapted.combining(parts) else {
                    return PollOutcome(.failed(.implausible("no products configured"), request: "GET \(Self.path)"), next: nextPoll(after: now))
                }
                // Decide the next step as if today succeeded; a rejection is handled by the runner.
                lastTodaySuccess = now
                let applied = sink.apply(joined.update, nextPoll: nextPoll(after: now), at: now)
                if !applied.isApplied { lastTodaySuccess = nil }
                report = applied
                if joined.tally.skipped > 0 { notes.append("skipped \(joined.tally)") }
            }
        }

        if tomorrowDue(at: now), lastTodaySuccess != nil {
            lastTomorrowAttempt = now
            let target = WATradingDay.nextTradingDay(after: now)
            switch await fetchAll(day: .tomorrow, now: now) {
            case .failure(let failure):
                if report == nil { return PollOutcome(failure.outcome, next: nextPoll(after: now)) }
                notes.append("tomorrow failed (\(failure.request): \(failure.error)); retrying")
            case .success(let parts):
                let records = parts.flatMap(\.update.tomorrow)
                let dated = records.filter { $0.day == target.description }
                if dated.isEmpty {
                    let other = records.first.map { " (feed dated \($0.day))" } ?? ""
                    notes.append("tomorrow (\(target)) not yet published\(other)")
                } else {
                    tomorrowDone = target
                    // Tomorrow-only, never a full update: stations and today's prices stay as they are.
                    let update = ProviderUpdate(provider: .wa, stations: [], prices: [], tomorrow: dated, asOf: now, isDelta: true)
                    let tomorrowReport = sink.apply(update, nextPoll: nextPoll(after: now), at: now)
                    notes.append("tomorrow (\(target)) published: \(tomorrowReport.tomorrowPrices) prices")
                    if report == nil { report = tomorrowReport }
                }
            }
        }

        let next = nextPoll(after: now)
        if let report { return PollOutcome(.merged(report), next: next, notes: notes) }
        sink.setNextPoll(next, for: .wa, at: now)
        return PollOutcome(.idle(notes.isEmpty ? "nothing due" : notes.joined(separator: "; ")), next: next)
    }

    /// All products for one day, in order, or the first failure.
    private func fetchAll(day: FuelWatchDay, now: Date) async -> Result<[Adapted], PollFailure> {
        var parts: [Adapted] = []
        for (index, product) in products.enumerated() {
            if index > 0, spacing > 0 {
                do { try await Task.sleep(nanoseconds: UInt64(spacing * 1e9)) } catch {
                    return .failure(PollFailure(error: .transport("cancelled"), request: "GET \(Self.path)"))
                }
            }
            var query = [("Product", String(product.rawValue))]
            if day == .tomorrow { query.append(("Day", "tomorrow")) }
            let request = ProviderRequest(base: base, path: Self.path, query: query, timeout: timeout)
            let label = "\(request.label)?Product=\(product.rawValue)\(day == .tomorrow ? "&Day=tomorrow" : "")"
            switch await client.send(request, auth: nil) {
            case .failure(let error): return .failure(PollFailure(error: error, request: label))
            case .success(let response):
                do {
                    parts.append(try FuelWatchRSSAdapter.adapt(response.body, product: product, day: day, fetchedAt: now))
                } catch {
                    return .failure(PollFailure(adapter: error, request: label))
                }
            }
        }
        return .success(parts)
    }

    private func tomorrowDue(at now: Date) -> Bool {
        let publication = WATradingDay.expectedAt(now: now)
        guard now >= publication, now < publication.addingTimeInterval(Self.tomorrowWindow) else { return false }
        guard tomorrowDone != WATradingDay.nextTradingDay(after: now) else { return false }
        guard let lastTomorrowAttempt else { return true }
        return now >= lastTomorrowAttempt.addingTimeInterval(tomorrowRetry - 1)
    }

    /// The earliest of: the next today poll, the next tomorrow attempt, and the next 06:00 rollover.
    func nextPoll(after now: Date) -> Date {
        var candidates: [Date] = [(lastTodaySuccess ?? now).addingTimeInterval(interval)]
        let publication = WATradingDay.expectedAt(now: now)
        let windowEnd = publication.addingTimeInterval(Self.tomorrowWindow)
        if now < publication {
            candidates.append(publication)
        } else if now < windowEnd, tomorrowDone != WATradingDay.nextTradingDay(after: now) {
            candidates.append(min(windowEnd, (lastTomorrowAttempt ?? now).addingTimeInterval(tomorrowRetry)))
        } else {
            candidates.append(publication.addingTimeInterval(86_400))
        }
        // Five seconds after the next 06:00, so the rollover sees the new trading day.
        let nextStart = WATradingDay.start(of: WATradingDay.nextTradingDay(after: now)).addingTimeInterval(5)
        candidates.append(nextStart)
        return max(now.addingTimeInterval(1), candidates.min()!)
    }
}
