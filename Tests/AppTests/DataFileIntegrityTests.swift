import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App
import TestSupport

/// Files on disk are not trusted: every file carries a checksum, every value is range-checked on load, the
/// registry is made to agree with the snapshot, and whatever could not be used is reported, never trapped on.
@Suite(.longScenario) struct DataFileIntegrityTests {
    static let dataset = PersistenceTestSupport.smallDataset

    /// A data directory written by the app's own save.
    func savedDirectory() throws -> DataDirectory {
        let directory = DataDirectory(path: AppTestSupport.temporaryDirectory(), logger: AppTestSupport.quietLogger())
        try directory.save(Self.dataset)
        return directory
    }

    func bytes(_ directory: DataDirectory, _ file: DataDirectory.File) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: directory.url(file))))
    }

    func write(_ bytes: [UInt8], _ directory: DataDirectory, _ file: DataDirectory.File) throws {
        try Data(bytes).write(to: URL(fileURLWithPath: directory.url(file)))
    }

    func removeMovedAside(_ directory: DataDirectory) throws {
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) where name.contains(".corrupt-") {
            try FileManager.default.removeItem(atPath: directory.path + "/" + name)
        }
    }

    /// Offsets every `step` bytes, every byte of the first 64 and the last 40 (header and checksum trailer),
    /// and `random` more from a fixed seed.
    static func offsets(count: Int, step: Int, random: Int) -> [(offset: Int, bit: Int)] {
        var rng = SplitMix64(seed: 0x5EED_F11B)
        var result = Array(stride(from: 0, to: count, by: step)).map { ($0, $0 % 8) }
        result += (0..<min(64, count)).map { ($0, ($0 * 3) % 8) }
        result += (max(0, count - 40)..<count).map { ($0, ($0 * 5) % 8) }
        result += (0..<random).map { _ in (Int(rng.next() % UInt64(count)), Int(rng.next() % 8)) }
        return result
    }

    @Test func everyBitFlipInSnapshotBinIsReportedAsCorruptAndNeverLoadsOrTraps() throws {
        let directory = try savedDirectory()
        let original = try bytes(directory, .snapshot)
        var identical = 0, corrupt = 0
        let flips = Self.offsets(count: original.count, step: 211, random: 150)
        for (offset, bit) in flips {
            var flipped = original
            flipped[offset] ^= 1 << UInt8(bit)
            try write(flipped, directory, .snapshot)
            let loaded = directory.load()
            if loaded.hadSnapshot, loaded.dataset.snapshot == Self.dataset.snapshot { identical += 1 }
            if loaded.problems.contains(where: { $0.hasPrefix("snapshot.bin is unreadable") }) { corrupt += 1 }
            try removeMovedAside(directory)
        }
        print("snapshot.bin bit flips: \(flips.count) tried, \(identical) loaded identical, \(corrupt) reported corrupt, 0 trapped")
        #expect(corrupt == flips.count, "every flip is caught by the checksum")
        #expect(identical == 0)
    }

    /// Defence behind the checksum (and for the leader's wire body, which has none of its own): flips in a payload
    /// whose checksum was recomputed must be rejected or decode to values that pass every load limit.
    @Test func flipsBehindAValidChecksumAreRejectedOrDecodeToValidValuesNeverTrap() throws {
        let payload = try SnapshotCodec.encode(Self.dataset.snapshot)
        var identical = 0, rejected = 0, different = 0
        let flips = Self.offsets(count: payload.count, step: 53, random: 300)
        for (offset, bit) in flips {
            var flipped = payload
            flipped[offset] ^= 1 << UInt8(bit)
            guard let snapshot = try? SnapshotCodec.decode(flipped) else { rejected += 1; continue }
            if snapshot == Self.dataset.snapshot { identical += 1; continue }
            different += 1
            for entry in snapshot.entries {
                #expect((1...LoadLimits.maxStationID).contains(entry.id.rawValue))
                #expect(entry.station.location.latitude.isFinite && abs(entry.station.location.latitude) <= 90)
                #expect(entry.station.location.longitude.isFinite && abs(entry.station.location.longitude) <= 180)
                #expect(entry.prices.allSatisfy { LoadLimits.prices.contains($0.price.tenths) && $0.updatedAt.timeIntervalSince1970.isFinite })
            }
            _ = FuelIndex(snapshot: snapshot)
        }
        print("snapshot payload flips behind a valid checksum: \(flips.count) tried, \(identical) identical, \(rejected) rejected, \(different) decoded to other valid values, 0 trapped")
        #expect(rejected > 0 && different > 0)
        #expect(identical + rejected + different == flips.count)
    }

    @Test(arguments: [DataDirectory.File.registry, .history])
    func aTruncatedJSONFileIsReportedAndNoStationIDIsReused(_ file: DataDirectory.File) throws {
        let directory = try savedDirectory()
        let original = try bytes(directory, file)
        let payloadEnd = original.count - FileSeal.trailerLength
        var cuts = Array(stride(from: 0, to: original.count, by: max(1, original.count / 25)))
        cuts += [payloadEnd - 1, payloadEnd + 1, original.count - 1]
        for cut in cuts {
            try write(Array(original.prefix(cut)), directory, file)
            let loaded = directory.load()
            let reported = loaded.problems.contains { $0.hasPrefix("\(file.rawValue) is unreadable") }
            #expect(reported || loaded.dataset == Self.dataset, "cut at \(cut)")
            #expect(loaded.dataset.snapshot == Self.dataset.snapshot)
            try Self.expectNoIDCanBeReused(loaded.dataset, beyond: Self.dataset.registry)
            try removeMovedAside(directory)
        }
        // Cut exactly at the trailer: the checksum line removed from a directory written with checksums.
        try write(Array(original.prefix(payloadEnd)), directory, file)
        let stripped = directory.load()
        #expect(stripped.problems.contains { $0.hasPrefix("\(file.rawValue) is unreadable (no checksum line") }, "\(stripped.problems)")
        try Self.expectNoIDCanBeReused(stripped.dataset, beyond: Self.dataset.registry)
    }

    @Test func anOlderRegistryBesideANewerSnapshotReusesNoIDAndIsReported() throws {
        let directory = try savedDirectory()
        let entries = Self.dataset.snapshot.entries
        // The registry of an earlier save: fewer stations, and one key that later moved to another id.
        var older = StationRegistry()
        for entry in entries.prefix(100) { older.adopt(entry.station.key, as: entry.id) }
        older.adopt(StationKey(provider: .wa, sourceID: "gone-station"), as: entries[150].id)
        try write(FileSeal.seal(Array(try StoredJSON.encoder.encode(older))), directory, .registry)

        let loaded = directory.load()
        #expect(loaded.dataset.snapshot == Self.dataset.snapshot)
        #expect(loaded.problems.contains { $0.contains("registry.json: 1 assignments contradicted snapshot.bin") }, "\(loaded.problems)")
        try Self.expectNoIDCanBeReused(loaded.dataset, beyond: older)
    }

    @Test func aRegistryAheadOfTheSnapshotKeepsItsHigherIDs() throws {
        let directory = try savedDirectory()
        var ahead = Self.dataset.registry
        let newest = ahead.assign(StationKey(provider: .wa, sourceID: "opened-after-the-snapshot"))
        try write(FileSeal.seal(Array(try StoredJSON.encoder.encode(ahead))), directory, .registry)
        let loaded = directory.load()
        #expect(loaded.problems.isEmpty)
        #expect(loaded.dataset.registry.id(for: StationKey(provider: .wa, sourceID: "opened-after-the-snapshot")) == newest)
        try Self.expectNoIDCanBeReused(loaded.dataset, beyond: ahead)
    }

    @Test func filesWithoutAChecksumFromThePreviousFormatStillLoad() throws {
        let directory = try savedDirectory()
        for file in DataDirectory.File.allCases {
            try write(Array(try bytes(directory, file).dropLast(FileSeal.trailerLength)), directory, file)
        }
        // A directory from before checksums has no format record either.
        try FileManager.default.removeItem(atPath: directory.formatPath)
        let loaded = directory.load()
        #expect(loaded.problems.isEmpty)
        #expect(loaded.dataset == Self.dataset)
    }

    @Test func anOldFormatSnapshotWithAnImpossibleValueIsReportedNotLoaded() throws {
        var entries = Self.dataset.snapshot.entries
        entries[3].station.location = Coordinate(latitude: .nan, longitude: 115.9)
        let bad = Snapshot(version: 9, changedAt: nil, entries: entries, statuses: Self.dataset.snapshot.statuses)
        // A directory from before checksums: that snapshot alone.
        let directory = DataDirectory(path: AppTestSupport.temporaryDirectory(), logger: AppTestSupport.quietLogger())
        try directory.prepare()
        try write(try SnapshotCodec.encode(bad), directory, .snapshot)
        let loaded = directory.load()
        #expect(!loaded.hadSnapshot)
        #expect(loaded.problems.contains { $0.hasPrefix("snapshot.bin is unreadable (invalid coordinate nan,115.9)") }, "\(loaded.problems)")
    }

    @Test func aRecordALoadWouldRefuseIsLeftOutOfTheSaveSoTheRestStillLoads() throws {
        var dataset = Self.dataset
        var entries = dataset.snapshot.entries
        entries[5].station.location = Coordinate(latitude: .infinity, longitude: 115.9)
        entries[6].prices[0].updatedAt = Date(timeIntervalSince1970: .nan)
        dataset.snapshot = Snapshot(version: 2, changedAt: nil, entries: entries, statuses: dataset.snapshot.statuses)
        let logs = LogSink.inMemory()
        let directory = DataDirectory(path: AppTestSupport.temporaryDirectory(), logger: Logger(label: "test", level: .info, sink: logs))
        try directory.save(dataset)
        #expect(logs.lines.contains { $0.contains(" WARN ") && $0.contains("2 stations or prices hold values a load would refuse") })

        let loaded = directory.load()
        #expect(loaded.problems.isEmpty)
        #expect(loaded.dataset.snapshot.entries.count == entries.count - 1)
        #expect(loaded.dataset.snapshot.entries.first { $0.id == entries[6].id }?.prices.count == entries[6].prices.count - 1)
        #expect(loaded.dataset.registry.id(for: entries[5].station.key) == entries[5].id, "its id stays taken")
    }

    @Test func aDamagedHistoryIsNamedInHealthAfterARestart() throws {
        let path = AppTestSupport.temporaryDirectory()
        let first = try PersistenceTestSupport.app(directory: path, dataset: Self.dataset, logs: .inMemory())
        _ = try first.startLive()
        first.shutdown()
        var history = Array(try Data(contentsOf: URL(fileURLWithPath: path + "/history.json")))
        history[history.count / 2] ^= 0x04
        try Data(history).write(to: URL(fileURLWithPath: path + "/history.json"))

        let logs = LogSink.inMemory()
        let second = try PersistenceTestSupport.app(directory: path, logs: logs)
        _ = try second.startLive()
        defer { second.shutdown() }
        let persistence = try PersistenceTestSupport.persistence(second)
        let load = try require(persistence["last_load"] as? [String: Any])
        let problems = load["problems"] as? [String] ?? []
        #expect(problems.count == 1)
        #expect(problems.first?.hasPrefix("history.json is unreadable (checksum mismatch); moved aside to \(path)/history.json.corrupt-") == true, "\(problems)")
        #expect(logs.lines.contains { $0.contains(" ERROR ") && $0.contains("history.json is unreadable (checksum mismatch)") })
        #expect(logs.lines.contains { $0.contains("loaded 300 stations") })
        // A public client (through the trusted proxy) sees that a file was refused, never where it lives.
        let seenPublicly = try second.test(.GET, "/health", headers: ["X-Forwarded-For": "203.0.113.7"])
        #expect(!seenPublicly.bodyString.contains(path) && !seenPublicly.bodyString.contains("\"problems\""), "\(seenPublicly.bodyString)")
        let publicLoad = try require((try AppTestSupport.json(seenPublicly)["persistence"] as? [String: Any])?["last_load"] as? [String: Any])
        #expect(publicLoad["problem_count"] as? Int == 1)
    }

    /// Every snapshot station's key maps to its own id, and the next new station gets an id above every id the
    /// snapshot or `registry` ever used.
    static func expectNoIDCanBeReused(_ dataset: Dataset, beyond registry: StationRegistry) throws {
        for entry in dataset.snapshot.entries {
            #expect(dataset.registry.id(for: entry.station.key) == entry.id)
        }
        var next = dataset.registry
        let fresh = next.assign(StationKey(provider: .wa, sourceID: "never-seen-\(UUID().uuidString)"))
        let used = dataset.snapshot.entries.map(\.id.rawValue) + registry.assignments.map(\.id.rawValue)
        #expect(fresh.rawValue > used.max() ?? 0)
    }
}
