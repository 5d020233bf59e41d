import API
import Foundation
import Fuel
import HTTP

/// `Run data unpin DIR`: clears a version pin. A follower that once took a dataset at an absurd version (say
/// v1000012 from a hostile or broken leader) refuses every genuine one as older, across restarts, since the version
/// is persisted. This keeps every station, price and id of the data directory but sets the dataset's version to 0
/// and drops its change log (its cursors name the old versions), so the leader's next dataset is taken whatever
/// its version; sync clients start a full fetch once. Only on a stopped server (`petty.lock`).
struct DataUnpin {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let path: String

    /// Returns the version the directory held.
    func run() throws -> UInt64 {
        let lock = DataDirectoryLock(directory: path)
        try lock.acquire()
        defer { lock.release() }
        let directory = DataDirectory(path: path, logger: Logger(label: "petty", level: .error, sink: .standardError))
        let loaded = directory.load()
        guard loaded.hadSnapshot else { throw Failure(description: "no readable snapshot in \(path); nothing to unpin") }
        guard loaded.problems.isEmpty else {
            throw Failure(description: "\(path) has problems (see `data check`); nothing changed:\n"
                + loaded.problems.map { "  \($0)" }.joined(separator: "\n"))
        }
        let held = loaded.dataset.snapshot
        // A change log not describing the snapshot starts again after it.
        let dataset = Dataset(
            snapshot: Snapshot(version: 0, changedAt: held.changedAt, entries: held.entries, statuses: held.statuses),
            registry: loaded.dataset.registry, history: loaded.dataset.history, changes: nil,
            stationHistory: loaded.dataset.stationHistory)
        try directory.save(dataset)
        return held.version
    }
}
