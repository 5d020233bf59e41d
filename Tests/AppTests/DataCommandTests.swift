import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// `Run data check DIR` and `Run data copy FROM TO`, as an operator runs them (exit status and printed text).
@Suite struct DataCommandTests {
    static let dataset = IDHighWaterMarkTests.removal.dataset

    func savedDirectory() throws -> String {
        let path = AppTestSupport.temporaryDirectory()
        try DataDirectory(path: path, logger: AppTestSupport.quietLogger()).save(Self.dataset)
        return path
    }

    func run(_ arguments: String...) -> Int32 { Entrypoint.main(arguments: arguments, environment: [:]) }

    func contents(_ path: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path) where name != DataDirectoryLock.fileName {
            files[name] = FileManager.default.contents(atPath: path + "/" + name)
        }
        return files
    }

    @Test func aHealthyDirectoryChecksOutWithItsVersionsAndCounts() throws {
        let report = DataCheck(path: try savedDirectory()).run()
        #expect(report.ok, "\(report.problems)")
        let text = report.text
        #expect(text.contains("checksummed format"))
        #expect(text.contains("snapshot v\(Self.dataset.snapshot.version): \(Self.dataset.snapshot.stationCount) stations"))
        #expect(text.contains("highest ever issued \(IDHighWaterMarkTests.removal.removed.rawValue)"))
        for file in DataDirectory.File.allCases { #expect(text.contains("\(file.rawValue): "), "\(file)") }
        #expect(text.hasSuffix("ok"))
    }

    @Test func aDamagedFileFailsTheCheckAndIsLeftWhereItIs() throws {
        let path = try savedDirectory()
        let url = URL(fileURLWithPath: path + "/history.json")
        var bytes = Array(try Data(contentsOf: url))
        bytes[bytes.count / 2] ^= 0x01
        try Data(bytes).write(to: url)
        let before = try contents(path)
        #expect(run("data", "check", path) == 1)
        let report = DataCheck(path: path).run()
        #expect(report.problems.contains { $0.hasPrefix("history.json is unreadable (checksum mismatch)") }, "\(report.problems)")
        #expect(report.text.contains("history.json: \(bytes.count) bytes, CHECKSUM MISMATCH"))
        #expect(try contents(path) == before, "a check changes nothing")
    }

    @Test func missingFilesAndAMissingDirectoryFailTheCheck() throws {
        let path = try savedDirectory()
        try FileManager.default.removeItem(atPath: path + "/changes.json")
        #expect(DataCheck(path: path).run().problems.contains("changes.json is missing"))
        #expect(run("data", "check", path + "/nowhere") == 1)
        #expect(run("data", "check", try savedDirectory()) == 0)
    }

    @Test func aChangeLogBesideAnotherSnapshotFailsTheCheck() throws {
        let path = try savedDirectory()
        let other = try savedDirectory()
        try FileManager.default.removeItem(atPath: path + "/changes.json")
        try DataDirectory(path: other, logger: AppTestSupport.quietLogger()).save(PersistenceTestSupport.smallDataset)
        try FileManager.default.copyItem(atPath: other + "/changes.json", toPath: path + "/changes.json")
        let problems = DataCheck(path: path).run().problems
        #expect(problems.contains { $0.contains("sync cursors will be refused") }, "\(problems)")
    }

    @Test func aCopyHoldsEveryFileByteForByteAndLoadsTheSameDataset() throws {
        let from = try savedDirectory()
        let to = AppTestSupport.temporaryDirectory() + "/moved"
        #expect(run("data", "copy", from, to) == 0)
        #expect(try contents(to) == contents(from))
        let loaded = DataDirectory(path: to, logger: AppTestSupport.quietLogger()).load()
        #expect(loaded.problems.isEmpty && loaded.dataset == DataDirectory(path: from, logger: AppTestSupport.quietLogger()).load().dataset)
        #expect(loaded.dataset.registry.lastAssigned == IDHighWaterMarkTests.removal.removed.rawValue)
    }

    @Test func aCopyIsRefusedFromARunningServerIntoDataOrFromADamagedDirectory() throws {
        let from = try savedDirectory()
        let lock = DataDirectoryLock(directory: from)
        try lock.acquire()
        #expect(throws: DataDirectoryLock.Held.self) { try DataCopy(from: from, to: AppTestSupport.temporaryDirectory()).run() }
        lock.release()

        let occupied = try savedDirectory()
        let before = try contents(occupied)
        #expect(run("data", "copy", from, occupied) == 1)
        #expect(try contents(occupied) == before, "nothing overwritten")

        try FileManager.default.removeItem(atPath: from + "/registry.json")
        let target = AppTestSupport.temporaryDirectory()
        #expect(run("data", "copy", from, target) == 1)
        #expect(!FileManager.default.fileExists(atPath: target + "/snapshot.bin"))
    }

    @Test func theCommandLineNamesTheDataCommands() throws {
        #expect(try CommandLineParser.parse(["data", "check", "/d"], environment: [:]).0 == .dataCheck(directory: "/d"))
        #expect(try CommandLineParser.parse(["data", "copy", "/a", "/b"], environment: [:]).0 == .dataCopy(from: "/a", to: "/b"))
        #expect(throws: CommandLineError.self) { try CommandLineParser.parse(["data", "check"], environment: [:]) }
        #expect(throws: CommandLineError.self) { try CommandLineParser.parse(["data", "move", "/a", "/b"], environment: [:]) }
    }
}
