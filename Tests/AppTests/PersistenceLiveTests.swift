import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// Restarts on the same data directory, through real sockets.
@Suite(.serialized, .longScenario) struct PersistenceLiveTests {
    static let paths = ["/v1/stations/1", "/v1/stations?ids=1,2,3000,5000", "/v1/trends?state=VIC&fuel=U91&days=30", "/v1/averages?state=WA"]

    func fetch(_ port: Int, _ path: String) async throws -> (Int, Data) {
        let got = try await LiveGet(port: port, path)
        return (got.status, got.body)
    }

    func run(dataDirectory: String, logs: LogSink = .inMemory()) async throws -> [String: Data] {
        var config = AppTestSupport.config(dataDirectory: dataDirectory)
        config.logLevel = .info
        let app = try buildApplication(config, logger: Logger(label: "test", level: .info, sink: logs)).app
        let port = try app.startLive()
        var bodies: [String: Data] = [:]
        for path in Self.paths {
            let (status, body) = try await fetch(port, path)
            #expect(status == 200, "\(path)")
            bodies[path] = body
        }
        app.shutdown()
        return bodies
    }

    @Test func aRestartServesTheSameStationsIdsPricesAndHistory() async throws {
        let directory = AppTestSupport.temporaryDirectory()
        let first = try await run(dataDirectory: directory)
        for file in DataDirectory.File.allCases {
            #expect(FileManager.default.fileExists(atPath: directory + "/" + file.rawValue), "\(file.rawValue) written")
        }
        let logs = LogSink.inMemory()
        let second = try await run(dataDirectory: directory, logs: logs)
        #expect(logs.lines.contains { $0.contains("loaded 5123 stations") })
        #expect(!logs.lines.contains { $0.contains("seeded SAMPLE") })
        for path in Self.paths {
            #expect(first[path] == second[path], "\(path) differs after restart")
        }
    }

    @Test func aCorruptSnapshotIsMovedAsideAndIdsSurviveThroughTheRegistry() async throws {
        let directory = AppTestSupport.temporaryDirectory()
        let first = try await run(dataDirectory: directory)
        try Data("{ not json".utf8).write(to: URL(fileURLWithPath: directory + "/snapshot.bin"))
        let logs = LogSink.inMemory()
        let second = try await run(dataDirectory: directory, logs: logs)
        #expect(logs.lines.contains { $0.contains("snapshot.bin is unreadable") })
        let aside = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasPrefix("snapshot.bin.corrupt-") }
        #expect(aside.count == 1)
        #expect(first["/v1/stations/1"] == second["/v1/stations/1"])
        #expect(first["/v1/stations?ids=1,2,3000,5000"] == second["/v1/stations?ids=1,2,3000,5000"])
    }

    @Test func aCorruptRegistryAndHistoryStillStart() async throws {
        let directory = AppTestSupport.temporaryDirectory()
        _ = try await run(dataDirectory: directory)
        try Data([0xFF, 0x00, 0x12]).write(to: URL(fileURLWithPath: directory + "/registry.json"))
        try Data("[]".utf8).write(to: URL(fileURLWithPath: directory + "/history.json"))
        let logs = LogSink.inMemory()
        var config = AppTestSupport.config(dataDirectory: directory)
        config.logLevel = .info
        let app = try buildApplication(config, logger: Logger(label: "test", level: .info, sink: logs)).app
        let port = try app.startLive()
        defer { app.shutdown() }
        let (status, _) = try await fetch(port, "/v1/stations/1")
        #expect(status == 200)
        #expect(logs.lines.filter { $0.contains("is unreadable") }.count == 2)
    }
}

@Suite struct SnapshotCodecTests {
    @Test func theSampleSnapshotRoundTripsExactly() throws {
        let snapshot = AppTestSupport.sampleDataset.snapshot
        let decoded = try SnapshotCodec.decode(try SnapshotCodec.encode(snapshot))
        #expect(decoded == snapshot)
    }

    @Test func truncatedOrAlteredBytesAreRejectedNotMisread() throws {
        let bytes = try SnapshotCodec.encode(AppTestSupport.sampleDataset.snapshot)
        for cut in [0, 7, 8, 100, bytes.count / 2, bytes.count - 1] {
            #expect(throws: (any Error).self) { try SnapshotCodec.decode(Array(bytes.prefix(cut))) }
        }
        #expect(throws: (any Error).self) { try SnapshotCodec.decode(bytes + [0]) }
        var wrongMagic = bytes
        wrongMagic[0] = 0x58
        #expect(throws: (any Error).self) { try SnapshotCodec.decode(wrongMagic) }
    }

    @Test func anExportedJSONSnapshotIsImportedOnStart() throws {
        let directory = AppTestSupport.temporaryDirectory()
        let json = try StoredJSON.encoder.encode(AppTestSupport.sampleDataset.snapshot)
        try json.write(to: URL(fileURLWithPath: directory + "/" + DataDirectory.importableSnapshot))
        let loaded = DataDirectory(path: directory, logger: AppTestSupport.quietLogger()).load()
        #expect(loaded.hadSnapshot)
        #expect(loaded.dataset.snapshot == AppTestSupport.sampleDataset.snapshot)
    }
}
