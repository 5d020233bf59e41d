import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// Saving fails the ways disks fail: full, read-only, deleted. The server keeps serving, says so in `/health`
/// (once per failure state in the log), retries with backoff and catches up when the disk comes back.
@Suite(.serialized, .longScenario) struct PersistenceFailureTests {
    typealias Support = PersistenceTestSupport

    @Test(.enabled(if: Mounts.available, "needs tmpfs mounts (root)"))
    func aFullDiskShowsAsFailingKeepsServingAndRecoversWithOneWarningAndOneNotice() throws {
        let directory = AppTestSupport.temporaryDirectory()
        try #require(Mounts.tmpfs(at: directory, size: "64k"))
        defer { Mounts.unmount(directory) }
        let logs = LogSink.inMemory()
        let app = try Support.app(directory: directory, dataset: Support.smallDataset, logs: logs)
        _ = try app.startLive()
        defer { app.shutdown() }
        let firstID = Support.smallDataset.snapshot.entries[0].id.rawValue
        let before = try app.test(.GET, "/v1/stations/\(firstID)")

        #expect(try Support.wait(seconds: 10) { try Support.persistence(app)["consecutive_failures"] as? Int ?? 0 >= 3 })
        let health = try Support.health(app)
        let persistence = try Support.persistence(app)
        #expect(health["status"] as? String == "degraded")
        #expect(persistence["status"] as? String == "failing")
        #expect((persistence["last_error"] as? String ?? "").contains("No space left on device"), "\(persistence)")
        #expect(persistence["last_error_at"] is String)
        #expect(try app.test(.GET, "/v1/stations/\(firstID)").body == before.body)
        #expect(logs.lines.filter { $0.contains(" WARN ") && $0.contains("cannot save to") }.count == 1, "one warning, not one per retry")

        try #require(Mounts.remount(directory, "size=16m"))
        #expect(try Support.wait(seconds: 20) { try Support.persistence(app)["status"] as? String == "ok" })
        #expect(try Support.health(app)["status"] as? String == "ok")
        #expect(try Support.persistence(app)["last_save"] is String)
        #expect(logs.lines.filter { $0.contains(" NOTICE ") && $0.contains("works again after") }.count == 1)
        app.shutdown()

        let restartLogs = LogSink.inMemory()
        let restarted = try Support.app(directory: directory, logs: restartLogs)
        #expect(restartLogs.lines.contains { $0.contains("loaded 300 stations") })
        #expect(try restarted.test(.GET, "/v1/stations/\(firstID)").body == before.body)
    }

    @Test(.enabled(if: Mounts.available, "needs tmpfs mounts (root)"))
    func aReadOnlyDirectoryFailsTheFinalSaveLoudlyAndARestartLoadsTheLastGoodSave() throws {
        let directory = AppTestSupport.temporaryDirectory()
        let logs = LogSink.inMemory()
        let store = makePettyStore(Support.smallDataset)
        let service = PersistenceService(
            store: store, directory: DataDirectory(path: directory, logger: AppTestSupport.quietLogger()),
            logger: Logger(label: "test", level: .info, sink: logs), savedVersion: nil)
        let services = ServiceGroup(services: [service], logger: AppTestSupport.quietLogger())
        try services.start()
        #expect(Support.wait(seconds: 10) { service.health.lastSave != nil })

        try #require(Mounts.readOnly(directory))
        defer { Mounts.unmount(directory) }
        var newer = Support.smallDataset
        newer.snapshot = Snapshot(
            version: newer.snapshot.version + 1, changedAt: newer.snapshot.changedAt,
            entries: Array(newer.snapshot.entries.prefix(200)), statuses: newer.snapshot.statuses)
        store.replace(with: newer)
        #expect(Support.wait(seconds: 10) { service.health.isFailing })
        #expect(service.health.lastError?.contains("Read-only file system") == true, "\(service.health)")
        services.stop()
        #expect(logs.lines.filter { $0.contains(" ERROR ") && $0.contains("final save on shutdown failed") }.count == 1, "\(logs.lines)")
        #expect(logs.lines.filter { $0.contains(" WARN ") && $0.contains("cannot save to") }.count == 1)

        Mounts.unmount(directory)
        let loaded = DataDirectory(path: directory, logger: AppTestSupport.quietLogger()).load()
        #expect(loaded.problems.isEmpty)
        #expect(loaded.dataset.snapshot == Support.smallDataset.snapshot, "the last good save, not a torn mix")
    }

    @Test func aChangeThatKeepsTheSnapshotVersionIsSavedToo() throws {
        let directory = DataDirectory(path: AppTestSupport.temporaryDirectory(), logger: AppTestSupport.quietLogger())
        let store = makePettyStore(Support.smallDataset)
        let service = PersistenceService(store: store, directory: directory, logger: AppTestSupport.quietLogger(), savedVersion: nil)
        let services = ServiceGroup(services: [service], logger: AppTestSupport.quietLogger())
        try services.start()
        defer { services.stop() }
        #expect(Support.wait(seconds: 10) { service.health.lastSave != nil })

        var registry = Support.smallDataset.registry
        let id = registry.assign(StationKey(provider: .wa, sourceID: "assigned-without-a-new-snapshot"))
        store.update { dataset in
            var next = dataset
            next.registry = registry
            return next
        }
        #expect(store.current.version == Support.smallDataset.snapshot.version)
        #expect(Support.wait(seconds: 10) {
            directory.load().dataset.registry.id(for: StationKey(provider: .wa, sourceID: "assigned-without-a-new-snapshot")) == id
        })
    }

    @Test func aDeletedDirectoryIsRecreatedAndSavedAgainThoughNothingChanged() throws {
        let directory = AppTestSupport.temporaryDirectory()
        let logs = LogSink.inMemory()
        let app = try Support.app(directory: directory, dataset: Support.smallDataset, logs: logs)
        _ = try app.startLive()
        defer { app.shutdown() }
        #expect(try Support.wait(seconds: 10) { try Support.persistence(app)["last_save"] is String })

        try FileManager.default.removeItem(atPath: directory)
        #expect(Support.wait(seconds: 10) {
            DataDirectory.File.allCases.allSatisfy { FileManager.default.fileExists(atPath: directory + "/" + $0.rawValue) }
        })
        #expect(try Support.persistence(app)["status"] as? String == "ok")
        #expect(logs.lines.filter { $0.contains(" NOTICE ") && $0.contains("were deleted or changed behind the server") }.count == 1)
        // The re-created directory is locked again: a second server still cannot share it.
        let second = try Support.app(directory: directory, logs: .inMemory())
        #expect(throws: DataDirectoryLock.Held.self) { _ = try second.startLive() }
        second.shutdown()
        app.shutdown()

        let loaded = DataDirectory(path: directory, logger: AppTestSupport.quietLogger()).load()
        #expect(loaded.dataset.snapshot == Support.smallDataset.snapshot)
    }
}
