import Testing
import AlertStore
import Postgres

@Suite(.enabled(if: AlertsLiveDatabase.isReachable, AlertsLiveDatabase.skipReason))
struct AlertsLiveMigratorTests {
    @Test func theSchemaIsCreatedOnceAndASecondStartChangesNothing() async throws {
        try await AlertsLiveDatabase.withFreshDatabase { client, _ in
            #expect(try await Migrator().migrate(client) == AlertSchema.migrations.last?.version)
            #expect(try await Migrator().migrate(client) == AlertSchema.migrations.last?.version)
            let rows = try await client.query("SELECT version FROM schema_migrations ORDER BY version")
            #expect(rows.rows.map { $0["version"] } == AlertSchema.migrations.map { String($0.version) })
            let tables = try await client.query(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY table_name")
            #expect(tables.rows.compactMap { $0["table_name"] } == ["alert_progress", "alert_states", "alerts", "devices", "fence", "notifications", "schema_migrations"])
        }
    }

    /// Without the advisory lock both would run v2's CREATE TABLE and one would fail with 42P07.
    @Test func twoMembersMigratingTogetherApplyEachStepExactlyOnce() async throws {
        try await AlertsLiveDatabase.withFreshDatabase { client, configuration in
            let slow = AlertSchema.migrations + [
                Migration(version: 100, name: "slow step", sql: "SELECT pg_sleep(0.3); CREATE TABLE slow_step (id int); INSERT INTO slow_step VALUES (1)"),
            ]
            let other = PostgresClient(configuration: configuration, maxConnections: 2)
            async let first = Migrator(migrations: slow).migrate(client)
            async let second = Migrator(migrations: slow).migrate(other)
            let versions = try await [first, second]
            #expect(versions == [100, 100])
            other.shutdown()
            let applied = try await client.query("SELECT count(*) AS n FROM slow_step")
            #expect(applied.first?["n"] == "1")
            let recorded = try await client.query("SELECT count(*) AS n FROM schema_migrations WHERE version = 100")
            #expect(recorded.first?["n"] == "1")
        }
    }

    @Test func aFailingMigrationLeavesNoTraceAndTheVersionBefore() async throws {
        try await AlertsLiveDatabase.withFreshDatabase { client, _ in
            let broken = AlertSchema.migrations + [Migration(version: 101, name: "broken", sql: "CREATE TABLE half_done (id int); SELECT 1/0")]
            await #expect { try await Migrator(migrations: broken).migrate(client) } throws: { ($0 as? PostgresError)?.sqlState == "22012" }
            let version = try await client.query("SELECT max(version) AS v FROM schema_migrations")
            #expect(version.first?["v"] == AlertSchema.migrations.last.map { String($0.version) })
            let table = try await client.query("SELECT to_regclass('half_done') IS NULL AS gone")
            #expect(table.first?["gone"] == "t")
        }
    }
}
