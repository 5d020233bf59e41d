import Foundation

extension ChangeLog {
    /// A price's `stale`/`implausible` flags can change without the price changing: a provider's newer as-of moves
    /// the staleness cut-off, and any price moves its state's median. A station whose unchanged price changed
    /// standing is stamped `now`, so a syncing client gets the station again (with its flags) like any other change.
    /// (A changed price's item carries its flags too; stamping the station as well only costs a station item.)
    mutating func stampStandingChanges(from old: Snapshot, to new: Snapshot, at now: Date) {
        let before = old.judge
        let after = new.judge
        guard before != after else { return }
        for entry in new.entries {
            guard let previous = old[entry.id], stations[entry.id] != now else { continue }
            for price in entry.prices {
                guard let was = previous.price(of: price.fuel) else { continue }
                if before.standing(of: was, at: previous.station) != after.standing(of: price, at: entry.station) {
                    stations[entry.id] = now
                    break
                }
            }
        }
    }
}
