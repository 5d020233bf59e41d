import Foundation

/// When a station seen under a new key is one we already know.
public enum StationIdentity {
    /// Two records this close (metres) are the same site: a coordinate edit, or the same site in another feed.
    public static let sameSiteMeters = 50.0

    /// Providers whose station keys are not stable ids: WA's RSS keys are rounded coordinates (a 4 m edit moves
    /// them) and its JSON API keys sites by number (the bundled sample), so one site has several keys. Providers
    /// with stable station codes (NSW, VIC, QLD, SA) are left alone: there a new code is a new station.
    public static let rekeyingProviders: Set<ProviderID> = [.wa]

    /// The same site: within `sameSiteMeters`, or the same brand or name at the same address and suburb
    /// (case and surrounding space ignored). Returns a rank, lower is better, or nil for a different site.
    static func rank(_ record: StationRecord, _ station: Station) -> Double? {
        let sameLabel = (!record.brand.isEmpty && StationQuery.fold(record.brand) == StationQuery.fold(station.brand))
            || StationQuery.fold(record.name) == StationQuery.fold(station.name)
        let sameAddress = !record.address.isEmpty && StationQuery.fold(record.address) == StationQuery.fold(station.address)
            && StationQuery.fold(record.suburb) == StationQuery.fold(station.suburb)
        var metres = Double.infinity
        if record.location.isValid, station.location.isValid { metres = record.location.distanceKm(to: station.location) * 1_000 }
        let near = metres <= sameSiteMeters
        guard near || (sameLabel && sameAddress) else { return nil }
        // Prefer a labelled match, then the nearest.
        return (sameLabel ? 0 : 1_000) + (sameAddress ? 0 : 500) + min(metres, 499)
    }
}

extension Snapshot {
    /// `update` with every station key the registry has never seen, that is the same site (`StationIdentity`) as a
    /// station of the same provider the update no longer lists, filed under that station's key, and the new key
    /// recorded in `registry` as an alias of its id. Keys recorded as aliases earlier are filed the same way. So a
    /// station keeps its id, and its share link, across the sample-to-live switch and small coordinate edits;
    /// no id is ever reused or given to another site.
    public func resolvingIdentities(of update: ProviderUpdate, registry: inout StationRegistry) -> ProviderUpdate {
        let provider = update.provider
        let listed = Set(update.stations.map(\.key))
        var claimed = Set<StationKey>()
        guard StationIdentity.rekeyingProviders.contains(provider) else { return update }
        if !update.isDelta, !update.stations.isEmpty {
            let absent = entries.filter { $0.station.provider == provider && !listed.contains($0.station.key) }
            if !absent.isEmpty {
                // Every candidate pair, best first, matched one to one (two neighbouring sites both re-keyed pair
                // up by rank, not by feed order).
                var pairs: [(rank: Double, record: Int, entry: Int)] = []
                for (r, record) in update.stations.enumerated()
                where registry.id(for: record.key) == nil && registry.aliasedID(for: record.key) == nil {
                    for (e, entry) in absent.enumerated() {
                        if let rank = StationIdentity.rank(record, entry.station) { pairs.append((rank, r, e)) }
                    }
                }
                pairs.sort { ($0.rank, $0.record, $0.entry) < ($1.rank, $1.record, $1.entry) }
                var matchedRecords = Set<Int>()
                for pair in pairs where !matchedRecords.contains(pair.record) && !claimed.contains(absent[pair.entry].station.key) {
                    guard registry.alias(update.stations[pair.record].key, to: absent[pair.entry].id) else { continue }
                    matchedRecords.insert(pair.record)
                    claimed.insert(absent[pair.entry].station.key)
                }
            }
        }
        guard !registry.aliases.isEmpty else { return update }
        // Alias key -> the key its station is filed under (unless the update lists that key too). Every key the
        // update names counts, not only its station records: a tomorrow-only or prices-only update names its
        // stations by the same live keys, and must reach the same stations as today's prices.
        var canonical: [StationKey: StationKey] = [:]
        let keyByID = Dictionary(entries.lazy.map { ($0.id, $0.station.key) }, uniquingKeysWith: { first, _ in first })
        let named = listed.union(update.prices.lazy.map(\.station)).union(update.tomorrow.lazy.map(\.station))
        for key in named {
            guard let id = registry.aliasedID(for: key), let owner = keyByID[id] ?? registry.key(owning: id),
                !listed.contains(owner)
            else { continue }
            canonical[key] = owner
        }
        guard !canonical.isEmpty else { return update }
        var resolved = update
        resolved.stations = update.stations.map { record in
            var record = record
            record.key = canonical[record.key] ?? record.key
            return record
        }
        resolved.prices = update.prices.map { price in
            var price = price
            price.station = canonical[price.station] ?? price.station
            return price
        }
        resolved.tomorrow = update.tomorrow.map { price in
            var price = price
            price.station = canonical[price.station] ?? price.station
            return price
        }
        return resolved
    }
}
