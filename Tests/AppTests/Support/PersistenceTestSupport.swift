import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Fuel
import HTTP
@testable import API
@testable import App

/// Real directories that fail the way disks do: a tiny tmpfs (ENOSPC) and a read-only remount (EROFS).
/// Tests run as root, which ignores permission bits, so mounts are the honest way to make a directory unwritable.
enum Mounts {
    /// Whether this machine lets the tests mount a tmpfs (root in a sandbox that allows it).
    static let available: Bool = {
        let probe = AppTestSupport.temporaryDirectory()
        defer { rmdir(probe) }
        guard run("mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", probe) else { return false }
        return run("umount", probe)
    }()

    @discardableResult
    static func run(_ arguments: String...) -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }

    static func tmpfs(at path: String, size: String) -> Bool { run("mount", "-t", "tmpfs", "-o", "size=\(size)", "tmpfs", path) }
    static func remount(_ path: String, _ options: String) -> Bool { run("mount", "-o", "remount,\(options)", path) }
    /// A read-only bind mount over `path`. Unlike remounting the file system read-only, this works while files on it
    /// are open for writing (the data directory's lock file is); `unmount` makes it writable again.
    static func readOnly(_ path: String) -> Bool { run("mount", "--bind", path, path) && remount(path, "bind,ro") }
    static func unmount(_ path: String) { run("umount", "-l", path) }
}

enum PersistenceTestSupport {
    /// The sample history and statuses with 300 stations (and their registry): big enough to fill a 64 KiB tmpfs, quick to render.
    static let smallDataset: Dataset = {
        let sample = AppTestSupport.sampleDataset
        let snapshot = Snapshot(
            version: sample.snapshot.version, changedAt: sample.snapshot.changedAt,
            entries: Array(sample.snapshot.entries.prefix(300)), statuses: sample.snapshot.statuses)
        return Dataset(snapshot: snapshot, registry: StationRegistry(), history: sample.history)
    }()

    static func app(directory: String, dataset: Dataset? = nil, logs: LogSink) throws -> Application {
        try buildApplication(
            AppTestSupport.config(dataDirectory: directory), logger: Logger(label: "test", level: .info, sink: logs),
            dataset: dataset).app
    }

    static func health(_ app: Application) throws -> [String: Any] {
        try AppTestSupport.json(try app.test(.GET, "/health"))
    }

    static func persistence(_ app: Application) throws -> [String: Any] {
        try require(try health(app)["persistence"] as? [String: Any], "no persistence in /health")
    }

    /// Polls until `condition` holds (true) or `seconds` pass (false).
    static func wait(seconds: Double, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            usleep(100_000)
        }
        return try condition()
    }
}
