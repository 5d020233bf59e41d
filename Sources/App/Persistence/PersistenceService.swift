import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Fuel
import HTTP
import Synchronization

/// Writes the dataset to the data directory whenever the store publishes a new version (checked every second,
/// off the request path), and once more on shutdown.
final class PersistenceService: LifecycleService, @unchecked Sendable {
    let name = "persistence"
    private let store: PettyStore
    private let directory: DataDirectory
    private let logger: Logger
    private let interval: TimeInterval
    private let state = Mutex<(savedVersion: UInt64?, stopping: Bool)>((nil, false))
    private let stopped = DispatchSemaphore(value: 0)
    private var thread: Thread?

    init(store: PettyStore, directory: DataDirectory, logger: Logger, savedVersion: UInt64?, interval: TimeInterval = 1) {
        self.store = store
        self.directory = directory
        self.logger = logger
        self.interval = interval
        state.withLock { $0.savedVersion = savedVersion }
    }

    func start() throws {
        try directory.prepare()
        let thread = Thread { [self] in
            while !state.withLock({ $0.stopping }) {
                saveIfChanged()
                Thread.sleep(forTimeInterval: interval)
            }
            stopped.signal()
        }
        thread.name = "petty-persistence"
        self.thread = thread
        thread.start()
    }

    func shutdown() {
        guard thread != nil else { return }
        state.withLock { $0.stopping = true }
        stopped.wait()
        thread = nil
        saveIfChanged()
    }

    /// Saves the current dataset if its version was not saved yet; returns whether it wrote.
    @discardableResult
    func saveIfChanged() -> Bool {
        let view = store.current
        guard state.withLock({ $0.savedVersion }) != view.version else { return false }
        let started = Date()
        do {
            try directory.save(view.dataset)
            state.withLock { $0.savedVersion = view.version }
            // A merge parses megabytes of JSON into short-lived objects; give the freed pages back to the system.
            MemoryPressure.releaseFreePages()
            logger.info("data: saved snapshot v\(view.version) (\(view.snapshot.stationCount) stations) to \(directory.path) in \(Int(Date().timeIntervalSince(started) * 1000)) ms")
            return true
        } catch {
            logger.error("data: cannot save to \(directory.path): \(error)")
            return false
        }
    }
}
