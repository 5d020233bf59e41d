import Foundation
import Postgres

/// A fresh database per test on the live server (PETTY_TEST_DATABASE_URL; its role needs CREATEDB), dropped after.
enum AlertsLiveDatabase {
    static let base: PostgresConfiguration? = {
        guard let url = ProcessInfo.processInfo.environment["PETTY_TEST_DATABASE_URL"], !url.isEmpty else { return nil }
        return try? PostgresConfiguration(url: url)
    }()

    static let isReachable: Bool = {
        guard let base else { return false }
        let semaphore = DispatchSemaphore(value: 0)
        let result = Box()
        Thread.detachNewThread {
            Task {
                result.value = (try? await PostgresConnection.connect(base).close()) != nil
                semaphore.signal()
            }
        }
        semaphore.wait()
        return result.value
    }()

    static let skipReason: Comment = base == nil
        ? "PETTY_TEST_DATABASE_URL is not set: the live alert storage tests run from Tests/postgres/run.sh"
        : "the server at PETTY_TEST_DATABASE_URL is unreachable: the live alert storage tests run from Tests/postgres/run.sh"

    final class Box: @unchecked Sendable { var value = false }

    /// Runs `body` with a client on a new empty database, then drops it.
    static func withFreshDatabase(_ body: (PostgresClient, PostgresConfiguration) async throws -> Void) async throws {
        let admin = PostgresClient(configuration: base!, maxConnections: 1)
        let name = "alerts_test_\(UInt32.random(in: 0...UInt32.max))"
        _ = try await admin.query("CREATE DATABASE \(name)")
        var configuration = base!
        configuration.database = name
        let client = PostgresClient(configuration: configuration, maxConnections: 4)
        do {
            try await body(client, configuration)
        } catch {
            client.shutdown()
            _ = try? await admin.query("DROP DATABASE \(name) WITH (FORCE)")
            throw error
        }
        client.shutdown()
        _ = try await admin.query("DROP DATABASE \(name) WITH (FORCE)")
        admin.shutdown()
    }
}

import Testing
