import Foundation
import Postgres

/// The live PostgreSQL the alert suites run against (PETTY_TEST_DATABASE_URL, set by Tests/postgres/run.sh; its role
/// needs CREATEDB), and a fresh database per test on it.
public enum LivePostgres {
    public static let base: PostgresConfiguration? = {
        guard let url = ProcessInfo.processInfo.environment["PETTY_TEST_DATABASE_URL"], !url.isEmpty else { return nil }
        return try? PostgresConfiguration(url: url)
    }()

    /// Runs `body` with the configuration of a new empty database named `<prefix>_<random>` and the admin client that
    /// created it, then drops the database (its connections ended) whether `body` threw or not.
    public static func withFreshDatabase(
        prefix: String, _ body: (PostgresConfiguration, PostgresClient) async throws -> Void
    ) async throws {
        let admin = PostgresClient(configuration: base!, maxConnections: 1)
        let name = "\(prefix)_\(UInt32.random(in: 0...UInt32.max))"
        _ = try await admin.query("CREATE DATABASE \(name)")
        var configuration = base!
        configuration.database = name
        var failure: Error?
        do {
            try await body(configuration, admin)
        } catch {
            failure = error
        }
        // A test may have refused connections to take the database down.
        _ = try? await admin.query("ALTER DATABASE \(name) WITH ALLOW_CONNECTIONS true")
        _ = try? await admin.query("DROP DATABASE \(name) WITH (FORCE)")
        admin.shutdown()
        if let failure { throw failure }
    }
}
