import Clocks
import Foundation
import Testing
@testable import Postgres

/// The wire client against a real PostgreSQL (Tests/postgres/run.sh starts one and sets the URLs).
@Suite(.enabled(if: LiveDatabase.isReachable, LiveDatabase.skipReason))
struct PostgresLiveTests {
    @Test func aTrustLoginOverTCPAnswersAQuery() async throws {
        let client = LiveDatabase.client()
        let rows = try await client.query("SELECT current_user AS who, 1 + $1::int AS sum", [41])
        #expect(rows.first?["who"] == LiveDatabase.trust?.user)
        #expect(try rows.first?.int("sum") == 42)
        #expect(rows.columns.map(\.typeOID) == [19, 23]) // name, int4
        #expect(rows.commandTag == "SELECT 1")
    }

    @Test(.enabled(if: LiveDatabase.socket != nil, "PETTY_TEST_DATABASE_SOCKET_URL is not set"))
    func aLoginOverTheUnixSocketWorks() async throws {
        let client = LiveDatabase.client(LiveDatabase.socket)
        let rows = try await client.query("SELECT inet_server_addr() IS NULL AS over_socket")
        #expect(try rows.first?.bool("over_socket") == true)
    }

    @Test(.enabled(if: LiveDatabase.scram != nil, "PETTY_TEST_DATABASE_SCRAM_URL is not set"))
    func aSCRAMLoginWithAPasswordNeedingEscapesWorks() async throws {
        let client = LiveDatabase.client(LiveDatabase.scram)
        let rows = try await client.query("SELECT current_user AS who")
        #expect(rows.first?["who"] == LiveDatabase.scram?.user)
    }

    @Test(.enabled(if: LiveDatabase.scram != nil, "PETTY_TEST_DATABASE_SCRAM_URL is not set"))
    func aWrongPasswordIsAClearAuthenticationErrorWithoutThePassword() async throws {
        var configuration = try #require(LiveDatabase.scram)
        configuration.password = "not-the-password"
        do {
            _ = try await PostgresConnection.connect(configuration)
            Issue.record("a wrong password logged in")
        } catch let error as PostgresError {
            guard case .authentication(let reason) = error else { Issue.record("not an authentication error: \(error)"); return }
            #expect(reason.contains("password authentication failed"))
            #expect(!"\(error)".contains("not-the-password"))
        }
    }

    @Test(.enabled(if: LiveDatabase.scram != nil, "PETTY_TEST_DATABASE_SCRAM_URL is not set"))
    func noPasswordForASCRAMRoleSaysTheURLHasNone() async throws {
        var configuration = try #require(LiveDatabase.scram)
        configuration.password = nil
        await #expect { _ = try await PostgresConnection.connect(configuration) } throws: { "\($0)".contains("has none") }
    }

    @Test(.enabled(if: LiveDatabase.cleartext != nil, "PETTY_TEST_DATABASE_CLEARTEXT_URL is not set"))
    func aServerAskingForACleartextPasswordIsRefusedNamingSCRAM() async throws {
        let configuration = try #require(LiveDatabase.cleartext)
        await #expect { _ = try await PostgresConnection.connect(configuration) } throws: { error in
            guard case PostgresError.authentication(let reason) = error else { return false }
            return reason.contains("SCRAM-SHA-256") && !reason.contains("clear'")
        }
    }

    @Test func quotesNullsAndNonASCIITextTravelAsParametersUnchanged() async throws {
        let client = LiveDatabase.client(maxConnections: 1)
        let table = LiveDatabase.uniqueName("params")
        try await client.withConnection { connection in
            try await connection.execute("CREATE TEMP TABLE \(table) (id int PRIMARY KEY, note text, price numeric)")
            let hostile = "O'Brien \"quoted\"; DROP TABLE \(table); -- $1 \\ ''"
            let unicode = "Ünïcødé 日本語 🚗 ½"
            let inserted = try await connection.query(
                "INSERT INTO \(table) (id, note, price) VALUES ($1, $2, $3), ($4, $5, $6), ($7, $8, $9)",
                [1, .text(hostile), "189.9", 2, .null, .null, 3, .text(unicode), PostgresValue(199.5 as Double)])
            #expect(inserted.affectedRows == 3)
            let rows = try await connection.query("SELECT id, note, price FROM \(table) WHERE id = ANY($1::int[]) ORDER BY id", [PostgresValue(integers: [1, 2, 3])])
            #expect(rows.rows.map { $0["note"] } == [hostile, nil, unicode])
            #expect(rows.rows.map { $0["price"] } == ["189.9", nil, "199.5"])
            #expect(try rows.rows[0].double("price") == 189.9)
            let count = try await connection.query("SELECT count(*) AS n FROM \(table) WHERE note = $1", [.text(hostile)])
            #expect(count.first?["n"] == "1")
        }
    }

    @Test func aStatementIsParsedOncePerSessionAndBoundByNameAfterThat() async throws {
        let client = LiveDatabase.client(maxConnections: 1)
        let table = LiveDatabase.uniqueName("prepared")
        try await client.withConnection { connection in
            let sql = "SELECT $1::int + 1 AS n /* \(table) */"
            for n in [1, 41, -3] { #expect(try await connection.query(sql, [PostgresValue(n)]).first?["n"] == "\(n + 1)") }
            let held = try await connection.query("SELECT count(*) AS n FROM pg_prepared_statements WHERE statement = $1", [.text(sql)])
            #expect(held.first?["n"] == "1")
            // Parsed inside a transaction that rolls back, it stays this session's.
            let inTransaction = "SELECT $1::text || '!' AS said /* \(table) */"
            try await connection.execute("BEGIN")
            #expect(try await connection.query(inTransaction, ["hi"]).first?["said"] == "hi!")
            try await connection.execute("ROLLBACK")
            #expect(try await connection.query(inTransaction, ["again"]).first?["said"] == "again!")
            // A table changing shape under its statement: at most one failure, then the new shape.
            try await connection.execute("CREATE TEMP TABLE \(table) (a int)")
            let star = "SELECT * FROM \(table)"
            #expect(try await connection.query(star).columns.count == 1)
            try await connection.execute("ALTER TABLE \(table) ADD COLUMN b int")
            do { _ = try await connection.query(star) } catch let error as PostgresError { #expect(error.sqlState == "0A000") }
            #expect(try await connection.query(star).columns.count == 2)
        }
    }

    @Test func aServerErrorCarriesItsSQLSTATEAndConstraintAndTheConnectionStaysUsable() async throws {
        let client = LiveDatabase.client(maxConnections: 1)
        let table = LiveDatabase.uniqueName("errors")
        try await client.withConnection { connection in
            try await connection.execute("CREATE TEMP TABLE \(table) (token text CONSTRAINT \(table)_token_key UNIQUE)")
            _ = try await connection.query("INSERT INTO \(table) VALUES ($1)", ["abc"])
            do {
                _ = try await connection.query("INSERT INTO \(table) VALUES ($1)", ["abc"])
                Issue.record("a duplicate was accepted")
            } catch let error as PostgresError {
                guard case .server(let server) = error else { Issue.record("not a server error: \(error)"); return }
                #expect(server.code == SQLState.uniqueViolation)
                #expect(server.severity == "ERROR")
                #expect(server.constraint == "\(table)_token_key")
                #expect(server.detail?.contains("abc") == true)
            }
            await #expect { _ = try await connection.query("SELEC 1") } throws: { ($0 as? PostgresError)?.sqlState == "42601" }
            #expect(try await connection.query("SELECT 2 AS two").first?["two"] == "2")
            #expect(!connection.isClosed)
        }
    }

    @Test func aTransactionIsRolledBackWhenItsBodyOrTheServerFails() async throws {
        let client = LiveDatabase.client()
        let table = LiveDatabase.uniqueName("tx")
        _ = try await client.query("CREATE TABLE \(table) (id int PRIMARY KEY)")
        defer { Task { _ = try? await client.query("DROP TABLE \(table)") } }
        struct Abandoned: Error {}
        await #expect(throws: Abandoned.self) {
            try await client.withTransaction { connection in
                _ = try await connection.query("INSERT INTO \(table) VALUES ($1)", [1])
                throw Abandoned()
            }
        }
        await #expect { 
            try await client.withTransaction { connection in
                _ = try await connection.query("INSERT INTO \(table) VALUES ($1)", [2])
                _ = try await connection.query("INSERT INTO \(table) VALUES ($1)", [2])
            }
        } throws: { ($0 as? PostgresError)?.sqlState == SQLState.uniqueViolation }
        // A body that swallows the server's error must not get a silent COMMIT (which PostgreSQL turns into ROLLBACK).
        await #expect {
            try await client.withTransaction { connection in
                _ = try await connection.query("INSERT INTO \(table) VALUES ($1)", [3])
                _ = try? await connection.query("INSERT INTO \(table) VALUES ($1)", [3])
            }
        } throws: { ($0 as? PostgresError)?.sqlState == "25P02" }
        try await client.withTransaction { connection in
            _ = try await connection.query("INSERT INTO \(table) VALUES ($1)", [4])
        }
        let rows = try await client.query("SELECT id FROM \(table) ORDER BY id")
        #expect(rows.rows.map { $0["id"] } == ["4"])
    }

    @Test func aTerminatedConnectionIsReplacedByTheNextQuery() async throws {
        let client = LiveDatabase.client(maxConnections: 1)
        let first = try await client.query("SELECT pg_backend_pid() AS pid").first?["pid"]
        let killer = LiveDatabase.client()
        _ = try await killer.query("SELECT pg_terminate_backend($1::int)", [.text(first ?? "0")])
        for _ in 0..<100 {
            let alive = try await killer.query("SELECT count(*) AS n FROM pg_stat_activity WHERE pid = $1::int", [.text(first ?? "0")])
            if alive.first?["n"] == "0" { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        let second = try await client.query("SELECT pg_backend_pid() AS pid").first?["pid"]
        #expect(second != nil && second != first)
    }

    @Test func aQueryPastItsDeadlineIsCancelledOnTheServerAndTheClientGoesOn() async throws {
        let client = LiveDatabase.client(maxConnections: 1)
        let marker = LiveDatabase.uniqueName("sleep")
        _ = try await client.query("SELECT 1") // the login is not the query's time
        let started = MonotonicClock.seconds()
        await #expect { _ = try await client.query("SELECT pg_sleep(30), $1::text", [.text(marker)], timeout: 0.3) } throws: { error in
            guard case PostgresError.timedOut(let seconds) = error else { return false }
            return seconds == 0.3
        }
        // Far sooner than the 30 s sleep, with room for a loaded machine (CI runs beside other suites).
        #expect(MonotonicClock.seconds() - started < 10)
        var running = "1"
        let patience = MonotonicClock.seconds() + 10
        while MonotonicClock.seconds() < patience {
            let rows = try await client.query(
                "SELECT count(*) AS n FROM pg_stat_activity WHERE state = 'active' AND query LIKE 'SELECT pg_sleep(30)%' AND pid <> pg_backend_pid()")
            running = rows.first?["n"] ?? "?"
            if running == "0" { break }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        #expect(running == "0", "the abandoned pg_sleep still runs on the server")
    }

    @Test func aNotifySentOnAChannelReachesItsListener() async throws {
        let client = LiveDatabase.client()
        let channel = LiveDatabase.uniqueName("petty_test")
        let received = AsyncStream<PostgresClient.ListenEvent>.makeStream()
        let listening = Task {
            try await client.listen(on: channel) { event in received.continuation.yield(event) }
        }
        defer { listening.cancel() }
        var iterator = received.stream.makeAsyncIterator()
        #expect(await iterator.next() == .listening)
        try await client.notify(channel, payload: "alert 'changed' é")
        guard case .notification(let note) = await iterator.next() else { Issue.record("no notification"); return }
        #expect(note.channel == channel)
        #expect(note.payload == "alert 'changed' é")
    }
}
