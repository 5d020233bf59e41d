import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// Station price history lives in `station-history.bin` beside the other data files: a restart keeps it, damage
/// to it is reported without losing the rest.
@Suite struct StationHistoryPersistenceTests {
    @Test func aRestartServesTheSameHistory() throws {
        let path = AppTestSupport.temporaryDirectory()
        let dataset = AppTestSupport.sampleDataset
        #expect(dataset.stationHistory.markCount > 1_000)
        try DataDirectory(path: path, logger: AppTestSupport.quietLogger()).save(dataset)
        // The restarted app's own load of the directory is the one checked (loading it a second time costs seconds).
        let (restarted, store) = try buildApplication(AppTestSupport.config(dataDirectory: path), logger: AppTestSupport.quietLogger())
        let persistence = try #require(restarted.services.lazy.compactMap { $0 as? PersistenceService }.first)
        #expect(persistence.health.loadProblems.isEmpty)
        #expect(store.dataset.stationHistory == dataset.stationHistory)

        let vic = try require(dataset.snapshot.entries.first { $0.station.state == .VIC && dataset.stationHistory.marks($0.id, .U91).count > 3 })
        let target = "/v1/stations/\(vic.id)/history?fuel=U91&days=90"
        let before = try AppTestSupport.sharedSampleApp().test(.GET, target)
        let after = try restarted.test(.GET, target)
        #expect(after.status == .ok)
        #expect(after.bodyString == before.bodyString)
        #expect(((try AppTestSupport.json(after)["data"] as? [String: Any])?["changes"] as? [Any])?.count ?? 0 > 3)
    }

    @Test func aDamagedHistoryFileIsMovedAsideAndTheRestLoads() throws {
        let path = AppTestSupport.temporaryDirectory()
        let directory = DataDirectory(path: path, logger: AppTestSupport.quietLogger())
        try directory.save(AppTestSupport.sampleDataset)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: directory.url(.stationHistory))))
        bytes[bytes.count / 2] ^= 0x10
        try Data(bytes).write(to: URL(fileURLWithPath: directory.url(.stationHistory)))
        let loaded = directory.load()
        #expect(loaded.dataset.stationHistory.tracks.isEmpty)
        #expect(loaded.dataset.snapshot == AppTestSupport.sampleDataset.snapshot)
        #expect(loaded.problems.count == 1)
        #expect(loaded.problems.first?.hasPrefix("station-history.bin is unreadable (checksum mismatch)") == true, "\(loaded.problems)")
    }

    @Test func theCodecRoundTripsAndRefusesMalformedInput() throws {
        let history = AppTestSupport.sampleDataset.stationHistory
        let bytes = StationHistoryCodec.encode(history)
        #expect(try StationHistoryCodec.decode(bytes) == history)
        #expect(bytes.count == 12 + history.tracks.count * 12 + history.markCount * 6)
        #expect(throws: (any Error).self) { try StationHistoryCodec.decode(Array(bytes.dropLast())) }
        #expect(throws: (any Error).self) { try StationHistoryCodec.decode(bytes + [0]) }
        #expect(throws: (any Error).self) { try StationHistoryCodec.decode(Array("PTYSHIS0".utf8) + bytes.dropFirst(8)) }
        // Changes out of time order are damage.
        let unordered = StationHistory(tracks: [StationHistory.key(7, .U91): [PriceMark(seconds: 100, tenths: 1_800), PriceMark(seconds: 50, tenths: 1_900)]])
        #expect(throws: (any Error).self) { try StationHistoryCodec.decode(StationHistoryCodec.encode(unordered)) }
        #expect(try StationHistoryCodec.decode(StationHistoryCodec.encode(StationHistory())) == StationHistory())
    }
}
