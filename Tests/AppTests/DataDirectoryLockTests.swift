import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTP
import Testing
@testable import API
@testable import App

/// One server per data directory: two would assign station ids independently and overwrite each other's files.
@Suite(.serialized, .longScenario) struct DataDirectoryLockTests {
    @Test func aSecondServerOnTheSameDirectoryFailsToStartAndNamesTheDirectory() throws {
        let directory = AppTestSupport.temporaryDirectory()
        let dataset = PersistenceTestSupport.smallDataset
        let first = try PersistenceTestSupport.app(directory: directory, dataset: dataset, logs: .inMemory())
        _ = try first.startLive()
        defer { first.shutdown() }

        let second = try PersistenceTestSupport.app(directory: directory, dataset: dataset, logs: .inMemory())
        defer { second.shutdown() }
        let error = try #require(throws: DataDirectoryLock.Held.self) { _ = try second.startLive() }
        #expect(error.description.contains(directory))
        #expect(error.description.contains("in use by another Petty server"))

        first.shutdown()
        let third = try PersistenceTestSupport.app(directory: directory, dataset: dataset, logs: .inMemory())
        #expect(throws: Never.self) { _ = try third.startLive() }
        third.shutdown()
    }

    @Test func theServeBinaryExitsWithCode1AndOneLineWhenItsDirectoryIsInUse() async throws {
        let binary = try #require(ProviderEndToEndTests.binary)
        let work = AppTestSupport.temporaryDirectory()
        let data = work + "/data"
        func serve(_ port: Int, log: String) throws -> Process {
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
            let process = Process()
            process.executableURL = URL(fileURLWithPath: binary)
            process.arguments = ["serve", "--port", String(port), "--data-dir", data, "--threads", "1"]
            process.environment = ["PATH": "/usr/bin:/bin", "PETTY_PROVIDERS": "none", "PETTY_PUBLIC_DIR": AppTestSupport.publicDirectory]
            process.standardOutput = output
            process.standardError = output
            try process.run()
            return process
        }
        let firstPort = try ProviderEndToEndTests.freePort()
        let first = try serve(firstPort, log: work + "/first.log")
        defer { ProviderEndToEndTests.stop(first) }
        var up = false
        for _ in 0..<600 where !up {
            up = await ProviderEndToEndTests.get("http://127.0.0.1:\(firstPort)/health")?.0 == 200
            if !up { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        try #require(up, "first server never answered /health")

        let second = try serve(try ProviderEndToEndTests.freePort(), log: work + "/second.log")
        defer { ProviderEndToEndTests.stop(second) }
        let deadline = Date().addingTimeInterval(60)
        while second.isRunning && Date() < deadline { try await Task.sleep(nanoseconds: 100_000_000) }
        #expect(!second.isRunning)
        #expect(second.terminationStatus == 1)
        let log = String(decoding: try Data(contentsOf: URL(fileURLWithPath: work + "/second.log")), as: UTF8.self)
        let errors = log.split(separator: "\n").filter { $0.contains(" ERROR ") }
        #expect(errors.count == 1, "\(log)")
        #expect(errors.first?.contains("data directory \(data) is in use by another Petty server") == true, "\(log)")
        #expect(first.isRunning)
    }
}
