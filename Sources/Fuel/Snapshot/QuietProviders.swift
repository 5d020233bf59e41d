import Foundation

/// How long a live provider's data may go without a refresh before its prices are stale: a provider that has not
/// answered for that long (FuelWatch failing for weeks) says nothing about today's prices, so they stop counting
/// (left out of averages, trends, cheapest and `sort=price`, flagged `stale`) until it answers again.
///
/// Judged on the wall clock against the provider's `asOf` (its last merged feed, or WA's last rollover). Sample
/// data is judged by its own capture instant, so it never turns quiet however far the wall clock has moved on.
public enum QuietProviders {
    /// Days without a refresh, per provider. NSW, TAS, QLD and SA publish changes within minutes and WA a new day's
    /// prices every morning: two days without one is two missed days. VIC publishes a day late: three.
    public static let limitDays: [ProviderID: Int] = [.nsw: 2, .tas: 2, .wa: 2, .qld: 2, .sa: 2, .vic: 3]

    public static func limit(of provider: ProviderID) -> TimeInterval {
        TimeInterval(limitDays[provider] ?? 2) * 86_400
    }

    /// The instant `status`'s prices turn stale for want of a refresh (`asOf` + the limit); nil for sample data or
    /// a provider without data.
    public static func staleAt(_ status: ProviderStatus) -> Date? {
        guard status.source == .live, let asOf = status.asOf else { return nil }
        return asOf.addingTimeInterval(limit(of: status.provider))
    }
}

extension Snapshot {
    /// Marks each live provider whose data is older than its limit at `now` (`ProviderStatus.staleSince`), in a new
    /// version; `self` when none newly is. A merge that refreshes the provider clears the mark. Cheap: callers call
    /// it on every poll step.
    public func markingQuiet(at now: Date) -> Snapshot {
        var changed = false
        let marked = statuses.map { status in
            guard status.staleSince == nil, let staleAt = QuietProviders.staleAt(status), staleAt <= now else { return status }
            var status = status
            status.staleSince = staleAt
            changed = true
            return status
        }
        guard changed else { return self }
        return Snapshot(version: version + 1, changedAt: stamp(at: now), entries: entries, statuses: marked)
    }
}

extension Dataset {
    /// `Snapshot.markingQuiet(at:)`, with the change log recording the prices it flags.
    public func markingQuiet(at now: Date) -> Dataset {
        let marked = snapshot.markingQuiet(at: now)
        guard marked.version != snapshot.version else { return self }
        return advanced(to: marked, at: now)
    }
}
