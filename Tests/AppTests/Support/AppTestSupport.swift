import Foundation
import Fuel
import HTTP
import Providers
@testable import API
@testable import App

/// Builds apps for tests: a throwaway data directory, quiet logs, and either the bundled sample data
/// (seeded once per test process) or a dataset the test makes.
enum AppTestSupport {
    /// The bundled sample dataset, seeded once (it takes a second or two in debug builds).
    static let sampleDataset: Dataset = {
        let bootstrap = DataBootstrap(config: AppConfiguration(), logger: Logger(label: "test", level: .critical, sink: .inMemory()))
        return try! bootstrap.seedFromSamples(Dataset())
    }()

    /// A fresh directory under this process's scratch root (`TestScratch`), removed when the process exits.
    static func temporaryDirectory() -> String {
        let path = TestScratch.root + "/\(UUID().uuidString)"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static func config(dataDirectory: String = temporaryDirectory()) -> AppConfiguration {
        var config = AppConfiguration()
        config.environment = .testing
        config.dataDirectory = dataDirectory
        config.publicDirectory = publicDirectory
        config.logLevel = .critical
        return config
    }

    /// `Public/` of this checkout, found from this file's path.
    static let publicDirectory: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
                return url.appendingPathComponent("Public").path
            }
        }
        return "Public"
    }()

    static func sampleApp(clock: @escaping @Sendable () -> Date = { Date() }) throws -> Application {
        try buildApplication(config(), logger: quietLogger(), clock: clock, dataset: sampleDataset).app
    }

    /// One in-memory sample app for the suites that only send it requests: building one renders the whole sample
    /// (seconds of CPU in debug), and a suite builds a fresh instance per test. Never start it live or feed it.
    static func sharedSampleApp() throws -> Application { try sharedSample.get() }
    private static let sharedSample = Result { try sampleApp() }

    static func app(with dataset: Dataset, clock: @escaping @Sendable () -> Date = { Date() }) throws -> Application {
        try buildApplication(config(), logger: quietLogger(), clock: clock, dataset: dataset).app
    }

    static func quietLogger() -> Logger { Logger(label: "test", level: .critical, sink: .inMemory()) }

    static func json(_ response: TestResponse) throws -> [String: Any] {
        try require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any], "body is not a JSON object: \(response.bodyString.prefix(200))")
    }

    /// A list body's `data` rows and its `meta`.
    static func list(_ response: TestResponse) throws -> (data: [[String: Any]], meta: [String: Any]) {
        let json = try json(response)
        return (try require(json["data"] as? [[String: Any]], "no data rows"), try require(json["meta"] as? [String: Any], "no meta"))
    }
}

func require<T>(_ value: T?, _ message: String = "missing value") throws -> T {
    guard let value else { throw TestFailure(message) }
    return value
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

/// A suite whose tests ask the app built once over the bundled sample data (`AppTestSupport.sharedSampleApp`).
protocol OnSampleApp {}

extension OnSampleApp {
    var app: Application { get throws { try AppTestSupport.sharedSampleApp() } }
}
