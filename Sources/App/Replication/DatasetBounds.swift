import API
import Foundation
import Fuel

/// The trust rules that keep a hostile or broken leader from pinning a follower (every later dataset refused as
/// older) or bloating it: nothing dated ahead of the follower's clock, no leap in version, no text the feeds would
/// not keep, and no growth the feeds themselves would not accept (`growth`, confirmed by the follower).
enum DatasetBounds {
    /// How far a provider's `asOf` may run ahead of the follower's clock (clocks of two machines differ).
    static let maxClockSkew: TimeInterval = 600
    /// More versions ahead than this is refused: one version per data change is decades of changes, while
    /// 2^63 - 1 would make every later dataset look older for ever.
    static let maxVersionJump: UInt64 = 1_000_000
    /// A follower without live data (empty, or samples) takes the leader's version whatever it is, up to this.
    static let maxVersion: UInt64 = 1 << 53

    static func refusal(of incoming: Snapshot, holding held: Snapshot, now: Date) -> DatasetRefusal? {
        textRefusal(incoming) ?? futureRefusal(incoming, now: now) ?? versionRefusal(incoming, holding: held)
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

    static func versionRefusal(_ incoming: Snapshot, holding held: Snapshot) -> DatasetRefusal? {
        let holdsLive = held.statuses.contains { $0.source == .live && $0.stationCount > 0 }
        if holdsLive, incoming.version > held.version, incoming.version - held.version > maxVersionJump {
            return DatasetRefusal(.versionJump, "version jump: v\(incoming.version) is more than \(maxVersionJump) versions beyond the v\(held.version) held")
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
}
