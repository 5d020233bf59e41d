import Clocks
import Foundation
@testable import Postgres

/// The real server the live suites run against, named by environment variables (Tests/postgres/run.sh sets them).
/// Unset or unreachable, the live tests are skipped with the reason in the output, never passed silently.
enum LiveDatabase {
    static let environment = ProcessInfo.processInfo.environment

    static func configuration(_ variable: String) -> PostgresConfiguration? {
        guard let url = environment[variable], !url.isEmpty else { return nil }
        return try? PostgresConfiguration(url: url)
    }

    static let trust = configuration("PETTY_TEST_DATABASE_URL")
    static let scram = configuration("PETTY_TEST_DATABASE_SCRAM_URL")
    static let socket = configuration("PETTY_TEST_DATABASE_SOCKET_URL")
    static let cleartext = configuration("PETTY_TEST_DATABASE_CLEARTEXT_URL")
    static let restartCommand = environment["PETTY_TEST_DATABASE_RESTART_COMMAND"]

    /// Whether the trust URL's server accepts a TCP or socket connection within a second.
    static let isReachable: Bool = reachable(trust)

    static func reachable(_ configuration: PostgresConfiguration?) -> Bool {
        guard let configuration, let socket = try? PostgresSocket.connect(to: configuration.endpoint, deadline: MonotonicClock.seconds() + 1) else { return false }
        socket.close()
        return true
    }

    static let skipReason: Comment = trust == nil
        ? "PETTY_TEST_DATABASE_URL is not set: the live PostgreSQL tests run from Tests/postgres/run.sh"
        : "the server at PETTY_TEST_DATABASE_URL is unreachable: the live PostgreSQL tests run from Tests/postgres/run.sh"

    static func client(_ configuration: PostgresConfiguration? = trust, maxConnections: Int = 2) -> PostgresClient {
        PostgresClient(configuration: configuration!, maxConnections: maxConnections, backoff: ReconnectBackoff(base: 0.05, cap: 0.5))
    }

    /// A table name no other test (or earlier run) uses.
    static func uniqueName(_ prefix: String) -> String {
        "\(prefix)_\(UInt32.random(in: 0...UInt32.max))"
    }
}

import Testing
