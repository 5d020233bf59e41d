import Foundation
import LivePostgres
import Postgres

/// A fresh database per test on the live server (PETTY_TEST_DATABASE_URL; its role needs CREATEDB), dropped after.
enum AlertsLiveDatabase {
    static var base: PostgresConfiguration? { LivePostgres.base }

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
        try await LivePostgres.withFreshDatabase(prefix: "alerts_test") { configuration, _ in
            let client = PostgresClient(configuration: configuration, maxConnections: 4)
            defer { client.shutdown() }
            try await body(client, configuration)
        }
    }
}

import Testing
