import API
import Foundation
import Fuel

/// The trust rules that keep a hostile or broken leader from pinning a follower (every later dataset refused as
/// older) or bloating it: nothing dated ahead of the follower's clock, no leap in version, no text the feeds would
/// not keep, and no growth the feeds themselves would not accept (`growth`, confirmed by the follower).
enum DatasetBounds {
    /// How far a provider's `asOf` may run ahead of the follower's clock (clocks of two machines differ).
    static let maxClockSkew: TimeInterval = 600
    /// How many versions ahead of the held one a dataset may be: `baseVersionJump`, plus one per second since the
    /// held data changed (a leader makes one version per merge, a few a minute: a second each is ample). So a
    /// follower that was off for a month takes its leader's version, while a jump of a million over fresh data, which
    /// would make every genuine dataset look older for weeks, is refused (`Run data unpin` clears a pin that got in).
    static let baseVersionJump: UInt64 = 10_000

    static func maxVersionJump(holding held: Snapshot, now: Date) -> UInt64 {
        let age = held.changedAt.map { now.timeIntervalSince($0) } ?? 0
        return baseVersionJump + UInt64(max(0, min(age, Double(maxVersion))))
    }
    /// A follower without live data (empty, or samples) takes the leader's version whatever it is, up to this.
    static let maxVersion: UInt64 = 1 << 53

    static func refusal(of incoming: Snapshot, holding held: Snapshot, now: Date) -> DatasetRefusal? {
        textRefusal(incoming) ?? futureRefusal(incoming, now: now) ?? versionRefusal(incoming, holding: held, now: now)
    }

    /// Names, brands, addresses and suburbs the feeds keep (`FeedPolicy.maxTextLength` characters, postcodes
    /// `maxPostcodeLength`, no control characters).
    static func textRefusal(_ incoming: Snapshot) -> DatasetRefusal? {
        for entry in incoming.entries {
            let station = entry.station
            let texts = [("name", station.name), ("brand", station.brand), ("address", station.address), ("suburb", station.suburb)]
            for (field, text) in texts + [("postcode", station.postcode ?? "")] {
                let limit = field == "postcode" ? FeedPolicy.maxPostcodeLength : FeedPolicy.maxTextLength
                if text.count > limit {
                    return DatasetRefusal(.text, "station \(entry.id): \(field) of \(text.count) characters, over the feeds' \(limit)")
                }
                if FeedPolicy.hasControlCharacters(text) {
                    return DatasetRefusal(.text, "station \(entry.id): \(field) holds control characters")
                }
            }
        }
        return nil
    }

    static func futureRefusal(_ incoming: Snapshot, now: Date) -> DatasetRefusal? {
        let limit = now.addingTimeInterval(maxClockSkew)
        for status in incoming.statuses {
            if let asOf = status.asOf, asOf > limit {
                return DatasetRefusal(.future, "\(status.provider.rawValue): data as of \(ISOTimestamp.string(asOf)) is ahead of this server's clock (\(ISOTimestamp.string(now)))")
            }
            if let held = status.tomorrow?.heldSince, held > limit {
                return DatasetRefusal(.future, "\(status.provider.rawValue): tomorrow's prices held since \(ISOTimestamp.string(held)), ahead of this server's clock")
            }
        }
        if let changedAt = incoming.changedAt, changedAt > limit {
            return DatasetRefusal(.future, "snapshot changed at \(ISOTimestamp.string(changedAt)), ahead of this server's clock (\(ISOTimestamp.string(now)))")
        }
        // The merge itself lets a row run `FeedPolicy.maxFutureSkew` ahead of the leader's clock.
        let priceLimit = limit.addingTimeInterval(FeedPolicy.maxFutureSkew)
        for entry in incoming.entries {
            for price in entry.prices where price.updatedAt > priceLimit || (price.seenAt.map { $0 > priceLimit } ?? false) {
                return DatasetRefusal(.future, "station \(entry.id): \(price.fuel.rawValue) price dated ahead of this server's clock")
            }
        }
        return nil
    }

    static func versionRefusal(_ incoming: Snapshot, holding held: Snapshot, now: Date) -> DatasetRefusal? {
        let holdsLive = held.statuses.contains { $0.source == .live && $0.stationCount > 0 }
        let jump = maxVersionJump(holding: held, now: now)
        if holdsLive, incoming.version > held.version, incoming.version - held.version > jump {
            return DatasetRefusal(.versionJump, "version jump: v\(incoming.version) is more than \(jump) versions beyond the v\(held.version) held")
        }
        if incoming.version > maxVersion {
            return DatasetRefusal(.versionJump, "version jump: v\(incoming.version) is beyond any real dataset (at most v\(maxVersion))")
        }
        return nil
    }

    /// Growth the feeds' own rule would refuse from one feed (`FeedPolicy.growthAllowed`), keyed by provider, or
    /// `newProviders` for stations of providers the follower holds nothing from. Providers held as samples are
    /// exempt, as in the merge: live data always replaces samples.
    static func growth(of incoming: Snapshot, holding held: Snapshot) -> [String: String] {
        let heldCounts = DatasetTrust.counts(held), incomingCounts = DatasetTrust.counts(incoming)
        let sample = Set(held.statuses.filter { $0.source == .sample }.map(\.provider))
        var grown: [String: String] = [:]
        var heldTotal = 0, newStations = 0
        for (provider, count) in incomingCounts where !sample.contains(provider) {
            let known = heldCounts[provider]?.stations ?? 0
            guard known > 0 else {
                newStations += count.stations
                continue
            }
            heldTotal += known
            let allowed = FeedPolicy.growthAllowed(known: known)
            if count.stations > known + allowed {
                grown[provider.rawValue] = "\(provider.rawValue): \(count.stations) stations, \(known) held (at most \(allowed) new at once)"
            }
        }
        if heldTotal > 0, newStations > FeedPolicy.growthAllowed(known: heldTotal) {
            grown[newProviders] = "\(newStations) stations of providers not held, beside \(heldTotal) held (at most \(FeedPolicy.growthAllowed(known: heldTotal)) new at once)"
        }
        return grown
    }

    static let newProviders = "new providers"

    /// The growth rule as a follower applies it, in follow and fleet mode alike: `grown` (from `growth`) is
    /// refused until `FeedPolicy.confirmationsForGrowth` datasets in a row show it; `seen` counts them.
    static func unconfirmedGrowth(_ grown: [String: String], seen: inout [String: Int]) -> DatasetRefusal? {
        let previous = seen
        seen = Dictionary(uniqueKeysWithValues: grown.keys.map { ($0, (previous[$0] ?? 0) + 1) })
        let unconfirmed = seen.filter { $0.value < FeedPolicy.confirmationsForGrowth }.keys.sorted()
        guard let first = unconfirmed.first, let what = grown[first] else { return nil }
        return DatasetRefusal(.growth, "implausible growth: \(what); accepted when \(FeedPolicy.confirmationsForGrowth) datasets in a row show it")
    }
}
