import API
import Foundation
import Fuel

/// Whether a follower may replace what it holds with the leader's dataset. A leader that lost its data
/// directory, restarted on samples or took in a broken feed must not wipe the fleet, so a follower never
/// accepts less than the merge rules would accept from a provider, and never goes backwards.
enum DatasetTrust {
    /// Why `incoming` must be refused while `held` is served, or nil to accept it. `versionMayGoBack` when a
    /// fleet's newer epoch orders the datasets (`PointerOrder`): every other rule still holds. `comparesAsOf`
    /// false in fleet mode, where the fleet's token orders datasets: a provider's `asOf` is stamped by the clock of
    /// whichever member polled, and two hosts' clocks are never compared.
    static func refusal(of incoming: Snapshot, holding held: Snapshot, versionMayGoBack: Bool = false, comparesAsOf: Bool = true) -> DatasetRefusal? {
        guard incoming.stationCount > 0 else { return DatasetRefusal(.shrink, "empty dataset: no stations") }
        guard versionMayGoBack || incoming.version >= held.version else {
            return DatasetRefusal(.backwards, "older dataset: v\(incoming.version) is behind the v\(held.version) held")
        }
        let heldCounts = counts(held), incomingCounts = counts(incoming)
        for old in held.statuses {
            let provider = old.provider.rawValue
            let heldCount = heldCounts[old.provider] ?? (0, 0)
            guard heldCount.stations > 0 else { continue }
            guard let new = incoming.status(of: old.provider) else { return DatasetRefusal(.shrink, "\(provider): missing from the dataset") }
            if old.source == .live && new.source == .sample {
                return DatasetRefusal(.shrink, "\(provider): sample data offered in place of live data")
            }
            if comparesAsOf, let oldAsOf = old.asOf, (new.asOf ?? .distantPast) < oldAsOf {
                let asOf = new.asOf.map(ISOTimestamp.string) ?? "an unknown time"
                return DatasetRefusal(.backwards, "\(provider): data as of \(asOf) is older than the \(ISOTimestamp.string(oldAsOf)) held")
            }
            let count = incomingCounts[old.provider] ?? (0, 0)
            // As in the merge: the half rule does not protect samples, so live data always replaces them.
            if old.source != .sample && count.stations * 2 < heldCount.stations {
                return DatasetRefusal(.shrink, "\(provider): \(count.stations) stations, fewer than half of the \(heldCount.stations) held")
            }
            if heldCount.prices > 0 && count.prices == 0 {
                return DatasetRefusal(.shrink, "\(provider): no plausible prices")
            }
        }
        return nil
    }

    static func counts(_ snapshot: Snapshot) -> [ProviderID: (stations: Int, prices: Int)] {
        var counts: [ProviderID: (stations: Int, prices: Int)] = [:]
        for entry in snapshot.entries {
            counts[entry.station.provider, default: (0, 0)].stations += 1
            counts[entry.station.provider, default: (0, 0)].prices += entry.prices.count
        }
        return counts
    }
}
