import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Fuel
import HTTP
import Synchronization
import Clocks

/// Keeps the data directory equal to the store: checks every second whether the files on disk still hold the
/// dataset in memory (they may be behind, or deleted, replaced or truncated behind our back) and saves when not.
/// A save is blocking file I/O: `ServiceGroup` runs the service on its own queue, off the cooperative pool.
/// Failures back off (1 s doubling to 60 s), show in `/health`, and are logged once when saving starts failing and
/// once when it recovers.
/// Holds the directory's lock (`DataDirectoryLock`) from `prepare()` until `run()` ends; when cancelled, `run()`
/// makes the final save, so registered first it saves after every writer has stopped.
final class PersistenceService: Service {
    let name = "persistence"
    private let store: any DatasetStore
    private let directory: DataDirectory
    private let logger: Logger
    private let interval: TimeInterval
    private let lock: DataDirectoryLock
    private struct State {
        /// What the files on disk hold, and what those files were when written. Compared with the store's dataset
        /// (cheap while both share storage), so a change that keeps the snapshot version is saved too.
        var onDisk: Dataset?
        var files: [FileIdentity] = []
        var locked = false
        var health = PersistenceHealth()
    }
    private let state = Mutex(State())

    init(
        store: any DatasetStore, directory: DataDirectory, logger: Logger, savedVersion: UInt64?, loadProblems: [String] = [],
        interval: TimeInterval = 1
    ) {
        self.store = store
        self.directory = directory
        self.logger = logger
        self.interval = interval
        self.lock = DataDirectoryLock(directory: directory.path)
        let files = savedVersion == nil ? [] : DataDirectory.File.allCases.map { FileIdentity(path: directory.url($0)) }
        let initial = store.dataset
        state.withLock {
            $0.onDisk = savedVersion == initial.snapshot.version ? initial : nil
            $0.files = files
            $0.health.loadProblems = loadProblems
            $0.health.loadedAt = Date()
        }
    }

    var health: PersistenceHealth { state.withLock { $0.health } }

    /// Takes the directory's lock: a second server on the same directory fails to start here.
    func prepare() throws {
        try lock.acquire()
        state.withLock { $0.locked = true }
    }

    func run() async throws {
        while !Task.isCancelled {
            saveIfChanged()
            try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
        }
        finalSave()
    }

    private func finalSave() {
        if !saveIfChanged(ignoringBackoff: true), let error = health.lastError, health.isFailing {
            logger.error("data: final save on shutdown failed, changes since \(health.lastSave?.ISO8601Format() ?? "start") are lost: \(error)")
        }
        lock.release()
        state.withLock { $0.locked = false }
    }

    /// Saves when the files do not hold the store's current dataset and no backoff is pending.
    /// Returns whether the files hold it afterwards.
    @discardableResult
    func saveIfChanged(now: Date = Date(), ignoringBackoff: Bool = false) -> Bool {
        let dataset = store.dataset
        let (onDisk, files, retryAt, locked) = state.withLock { ($0.onDisk, $0.files, $0.health.retryAt, $0.locked) }
        let unchanged = onDisk == dataset
        // Checked whether or not the data changed since: files deleted behind the server are worth a line either way.
        let held = files.isEmpty || directory.holds(files)
        if unchanged, held { return true }
        let waiting = !ignoringBackoff && (retryAt.map { now < $0 } ?? false)
        if waiting { return false }
        if !held, retryAt == nil { logger.notice("data: the files in \(directory.path) were deleted or changed behind the server; saving them again") }
        let started = MonotonicClock.millis()
        do {
            // A deleted directory takes its lock file with it; lock the re-created one.
            if locked, !lock.isCurrent {
                try directory.prepare()
                try lock.acquire()
            }
            let files = try directory.save(dataset)
            let recovered = state.withLock { state -> Int in
                let failures = state.health.consecutiveFailures
                state.onDisk = dataset
                state.files = files
                state.health.lastSave = now
                state.health.consecutiveFailures = 0
                state.health.retryAt = nil
                return failures
            }
            if recovered > 0 { logger.notice("data: saving to \(directory.path) works again after \(recovered) failed attempts") }
            // A merge parses megabytes of JSON into short-lived objects; give the freed pages back to the system.
            MemoryPressure.releaseFreePages()
            logger.info("data: saved snapshot v\(dataset.snapshot.version) (\(dataset.snapshot.stationCount) stations) to \(directory.path) in \(MonotonicClock.millis() - started) ms")
            return true
        } catch {
            let failures = state.withLock { state -> Int in
                state.health.consecutiveFailures += 1
                state.health.totalFailures += 1
                state.health.lastError = "\(error)"
                state.health.lastErrorAt = now
                state.health.retryAt = now.addingTimeInterval(PersistenceHealth.delay(after: state.health.consecutiveFailures, base: interval))
                return state.health.consecutiveFailures
            }
            if failures == 1 {
                logger.warning("data: cannot save to \(directory.path): \(error); retrying with backoff, /health reports persistence failing")
            }
            return false
        }
    }
}
