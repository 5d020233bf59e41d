import Postgres

/// Brings the schema to the newest version at start. Each migration runs in one transaction that first takes a
/// transaction-scoped advisory lock, so members starting together apply each step once: the second waits for the
/// first's commit, then sees the version already recorded and skips it. A database newer than this code is left as
/// it is (a rolling upgrade has newer members beside older ones) and reported.
public struct Migrator: Sendable {
    /// The advisory lock's key: any constant that no other code in the database uses ("petty-mg" in ASCII).
    public static let lockKey: Int64 = 0x7065_7474_792D_6D67

    public var migrations: [Migration]
    public var log: @Sendable (String) -> Void

    public init(migrations: [Migration] = AlertSchema.migrations, log: @escaping @Sendable (String) -> Void = { _ in }) {
        precondition(zip(migrations, migrations.dropFirst()).allSatisfy { $0.version < $1.version }, "migrations must be in increasing version order")
        self.migrations = migrations
        self.log = log
    }

    /// The schema version once done.
    @discardableResult
    public func migrate(_ client: PostgresClient) async throws -> Int {
        var version = 0
        for migration in migrations {
            version = try await client.withTransaction { connection in
                _ = try await connection.query("SELECT pg_advisory_xact_lock($1::bigint)", [.text(String(Self.lockKey))])
                try await connection.execute(
                    "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())")
                let current = try await Self.currentVersion(connection)
                guard current < migration.version else { return current }
                try await connection.execute(migration.sql)
                _ = try await connection.query("INSERT INTO schema_migrations (version, name) VALUES ($1, $2)", [.text(String(migration.version)), .text(migration.name)])
                log("alerts: database schema migrated to v\(migration.version) (\(migration.name))")
                return migration.version
            }
        }
        if let newest = migrations.last?.version, version > newest {
            log("alerts: database schema v\(version) is newer than this server's v\(newest); running with it")
        }
        return version
    }

    static func currentVersion(_ connection: PostgresConnection) async throws -> Int {
        try await connection.query("SELECT coalesce(max(version), 0) AS version FROM schema_migrations").first?.int("version") ?? 0
    }
}
