import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// Ids are forever: the station with the highest id is removed, then data files are lost or damaged. The highest
/// id ever issued is kept in `snapshot.bin`, `changes.json` and `registry.json`, so as long as any one of them
/// survives, the next new station gets an id above it (its favourites and share links never show another station).
@Suite struct IDHighWaterMarkTests {
    /// The small dataset after its highest-id station was removed (three feeds without it): gone from the snapshot,
    /// its tombstone in the change log, its id still in the registry.
    static let removal: (dataset: Dataset, removed: StationID) = {
        let before = PersistenceTestSupport.smallDataset
        let last = before.snapshot.entries.last!
        let at = (before.snapshot.changedAt ?? Date(timeIntervalSince1970: 1_760_000_000)).addingTimeInterval(3_600)
        let snapshot = Snapshot(
            version: before.snapshot.version + 1, changedAt: at, entries: Array(before.snapshot.entries.dropLast()),
            statuses: before.snapshot.statuses)
        var after = before
        after.snapshot = snapshot
        after.changes = before.changes.recording(from: before.snapshot, to: snapshot, at: at)
        return (after, last.id)
    }()

    static let newcomer = StationKey(provider: .wa, sourceID: "opened-after-the-loss")

    func savedDirectory() throws -> DataDirectory {
        let directory = DataDirectory(path: AppTestSupport.temporaryDirectory(), logger: AppTestSupport.quietLogger())
        try directory.save(Self.removal.dataset)
        return directory
    }

    func remove(_ files: [DataDirectory.File], from directory: DataDirectory) throws {
        for file in files { try FileManager.default.removeItem(atPath: directory.url(file)) }
    }

    /// The id the next new station gets after loading `directory`.
    func nextID(_ directory: DataDirectory) -> (id: StationID, problems: [String]) {
        let loaded = directory.load()
        var registry = loaded.dataset.registry
        return (registry.assign(Self.newcomer), loaded.problems)
    }

    @Test func theRemovedStationsIDIsAboveEveryStationStillListed() {
        #expect(Self.removal.dataset.snapshot.entries.allSatisfy { $0.id < Self.removal.removed })
        #expect(Self.removal.dataset.registry.lastAssigned == Self.removal.removed.rawValue)
    }

    @Test func aDeletedRegistryReusesNoIDAndIsReported() throws {
        let directory = try savedDirectory()
        try remove([.registry], from: directory)
        let (id, problems) = nextID(directory)
        #expect(id > Self.removal.removed)
        #expect(problems.contains { $0.hasPrefix("registry.json is missing: station ids continue above \(Self.removal.removed.rawValue)") }, "\(problems)")
    }

    @Test func aRegistryWithOneBitFlippedReusesNoIDAndIsReported() throws {
        let directory = try savedDirectory()
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: directory.url(.registry))))
        bytes[bytes.count / 3] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: directory.url(.registry)))
        let (id, problems) = nextID(directory)
        #expect(id > Self.removal.removed)
        #expect(problems.contains { $0.hasPrefix("registry.json is unreadable (checksum mismatch)") }, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("registry.json was refused: station ids continue above") }, "\(problems)")
    }

    @Test func aRegistryDeletedWithTheChangeLogAndBothHistoriesReusesNoID() throws {
        let directory = try savedDirectory()
        try remove([.registry, .changes, .stationHistory, .history], from: directory)
        let (id, problems) = nextID(directory)
        #expect(id > Self.removal.removed, "snapshot.bin alone keeps the mark")
        #expect(problems.contains { $0.hasPrefix("registry.json is missing") })
    }

    @Test func theChangeLogAloneKeepsTheMark() throws {
        let directory = try savedDirectory()
        try remove([.registry, .snapshot], from: directory)
        #expect(nextID(directory).id > Self.removal.removed)
        // Its mark, not only its tombstones (which expire after a week).
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: directory.url(.changes))))
        guard case .verified(let payload) = FileSeal.open(file) else { throw TestFailure("changes.json is not sealed") }
        let marked = try StoredJSON.decoder.decode(MarkedChangeLog.self, from: Data(payload))
        #expect(marked.idMark == Self.removal.removed.rawValue)
    }

    @Test func theSnapshotFileRecordsTheMark() throws {
        let directory = try savedDirectory()
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: directory.url(.snapshot))))
        guard case .verified(let payload) = FileSeal.open(file) else { throw TestFailure("snapshot.bin is not sealed") }
        let decoded = try SnapshotCodec.decodeMarked(payload)
        #expect(decoded.idMark == Self.removal.removed.rawValue)
        #expect(decoded.snapshot == Self.removal.dataset.snapshot)
    }

    @Test func aMarkFromElsewhereRaisesTheNextIDAndNeverLowersIt() {
        var registry = Self.removal.dataset.registry
        let rose = registry.raiseMark(to: 5_000), lowered = registry.raiseMark(to: 10)
        #expect(rose && !lowered)
        #expect(registry.assign(Self.newcomer) == StationID(5_001))
    }

    @Test func aMarkRaisedInTheStoreFromOutsideIsSavedAndOutlivesTheRegistry() throws {
        let store = makePettyStore(Self.removal.dataset)
        #expect(store.raiseIDMark(to: 9_000))
        #expect(!store.raiseIDMark(to: 10))
        #expect(store.idMark == 9_000)
        let directory = DataDirectory(path: AppTestSupport.temporaryDirectory(), logger: AppTestSupport.quietLogger())
        try directory.save(store.current.dataset)
        try remove([.registry, .changes], from: directory)
        #expect(nextID(directory).id == StationID(9_001))
    }

    @Test func everyDataFileGoneAfterARunIsReportedLoudly() throws {
        let directory = try savedDirectory()
        try DataDirectoryLock(directory: directory.path).acquire()  // what a server leaves behind
        try remove(DataDirectory.File.allCases, from: directory)
        try FileManager.default.removeItem(atPath: directory.formatPath)
        let logs = LogSink.inMemory()
        let loaded = DataDirectory(path: directory.path, logger: Logger(label: "test", level: .info, sink: logs)).load()
        #expect(loaded.problems.contains { $0.hasPrefix("every data file is gone from \(directory.path) (petty.lock shows it held data before)") }, "\(loaded.problems)")
        #expect(logs.lines.contains { $0.contains(" ERROR ") && $0.contains("DATA LOST") })
    }

    @Test func aFirstStartInANewOrEmptyDirectoryIsNoProblem() throws {
        let path = AppTestSupport.temporaryDirectory()
        #expect(DataDirectory(path: path, logger: AppTestSupport.quietLogger()).load().problems.isEmpty)
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        #expect(DataDirectory(path: path, logger: AppTestSupport.quietLogger()).load().problems.isEmpty)
    }

    @Test func aMissingRegistryIsNamedInHealthAfterARestart() throws {
        let path = AppTestSupport.temporaryDirectory()
        let first = try PersistenceTestSupport.app(directory: path, dataset: Self.removal.dataset, logs: .inMemory())
        _ = try first.startLive()
        first.shutdown()
        try FileManager.default.removeItem(atPath: path + "/registry.json")

        let second = try PersistenceTestSupport.app(directory: path, logs: .inMemory())
        let problems = (try PersistenceTestSupport.persistence(second)["last_load"] as? [String: Any])?["problems"] as? [String]
        #expect(problems?.contains { $0.hasPrefix("registry.json is missing") } == true, "\(problems ?? [])")
    }
}

/// Once a directory has been written with checksums, a file whose checksum line was removed is refused, not read as
/// a file from before checksums; that is known from the `format` record or from any other file's checksum line.
@Suite struct SealedFormatTests {
    func savedDirectory() throws -> DataDirectory {
        let directory = DataDirectory(path: AppTestSupport.temporaryDirectory(), logger: AppTestSupport.quietLogger())
        try directory.save(PersistenceTestSupport.smallDataset)
        return directory
    }

    func stripChecksum(_ file: DataDirectory.File, in directory: DataDirectory) throws {
        let url = URL(fileURLWithPath: directory.url(file))
        try Data(Array(try Data(contentsOf: url)).dropLast(FileSeal.trailerLength)).write(to: url)
    }

    @Test(arguments: DataDirectory.File.allCases)
    func aFileWhoseChecksumLineWasRemovedIsRefused(_ file: DataDirectory.File) throws {
        let directory = try savedDirectory()
        #expect(FileManager.default.fileExists(atPath: directory.formatPath))
        try stripChecksum(file, in: directory)
        let problems = directory.load().problems
        #expect(problems.contains { $0.hasPrefix("\(file.rawValue) is unreadable (no checksum line") }, "\(problems)")
    }

    @Test func theOtherFilesChecksumsTellWhenTheFormatRecordIsGoneToo() throws {
        let directory = try savedDirectory()
        try FileManager.default.removeItem(atPath: directory.formatPath)
        try stripChecksum(.history, in: directory)
        #expect(directory.load().problems.contains { $0.hasPrefix("history.json is unreadable (no checksum line") })
    }
}
