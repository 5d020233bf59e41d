import Glibc
import Testing
@testable import Postgres

/// The server restarted under an open transaction. Run alone (Tests/postgres/run.sh runs it after the other live
/// suites): a restart breaks every other test's connections.
@Suite(.enabled(if: LiveDatabase.isReachable, LiveDatabase.skipReason))
struct PostgresRestartLiveTests {
    @Test(.enabled(if: LiveDatabase.restartCommand != nil, "PETTY_TEST_DATABASE_RESTART_COMMAND is not set (Tests/postgres/run.sh sets it)"))
    func aServerRestartedMidTransactionLosesTheTransactionAndTheClientReconnects() async throws {
        let client = LiveDatabase.client(maxConnections: 1)
        let table = LiveDatabase.uniqueName("restart")
        _ = try await client.query("CREATE TABLE \(table) (id int PRIMARY KEY)")
        await #expect {
            try await client.withTransaction { connection in
                _ = try await connection.query("INSERT INTO \(table) VALUES ($1)", [1])
                try await offload { try Self.run(LiveDatabase.restartCommand!) }
                _ = try await connection.query("INSERT INTO \(table) VALUES ($1)", [2])
            }
        } throws: { error in
            switch error as? PostgresError {
            case .connection?: return true
            case .server(let server)?: return server.code == SQLState.adminShutdown
            default: return false
            }
        }
        let rows = try await client.query("SELECT count(*) AS n FROM \(table)")
        #expect(rows.first?["n"] == "0", "a transaction cut by the restart must commit nothing")
        _ = try await client.query("DROP TABLE \(table)")
    }

    /// `sh -c command`, waited for (posix_spawn: Foundation's Process can hang waiting inside a test's task).
    static func run(_ command: String) throws {
        var pid: pid_t = 0
        let arguments: [UnsafeMutablePointer<CChar>?] = ["/bin/sh", "-c", command].map { (text: String) in strdup(text) } + [nil]
        defer { arguments.forEach { free($0) } }
        guard posix_spawn(&pid, "/bin/sh", nil, nil, arguments, environ) == 0 else { throw PostgresError.connection("cannot run the restart command") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0 else { throw PostgresError.connection("the restart command failed (status \(status))") }
    }
}
