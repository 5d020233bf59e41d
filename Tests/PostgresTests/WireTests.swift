import Testing
@testable import Postgres

/// Message encoding byte for byte, and decoding of the server's messages (protocol v3, §55.7).
struct WireTests {
    @Test func theStartupMessageCarriesVersion3AndNulTerminatedPairs() {
        let bytes = FrontendMessage.startup(user: "u", database: "d", applicationName: "a").bytes
        var expected: [UInt8] = [0, 3, 0, 0]
        for text in ["user", "u", "database", "d", "application_name", "a", "client_encoding", "UTF8"] { expected += Array(text.utf8) + [0] }
        expected += [0]
        #expect(bytes == [0, 0, 0, UInt8(expected.count + 4)] + expected)
    }

    @Test func parseNamesItsStatementAndNoParameterTypes() {
        #expect(FrontendMessage.parse(statement: "", query: "SELECT $1").bytes
            == [UInt8(ascii: "P"), 0, 0, 0, 17, 0] + Array("SELECT $1".utf8) + [0, 0, 0])
        #expect(FrontendMessage.parse(statement: "p1", query: "SELECT $1").bytes
            == [UInt8(ascii: "P"), 0, 0, 0, 19] + Array("p1".utf8) + [0] + Array("SELECT $1".utf8) + [0, 0, 0])
    }

    @Test func bindSendsEveryValueAsTextWithNullAsMinusOne() {
        let bytes = FrontendMessage.bind(statement: "", parameters: ["it's", .null, "é"]).bytes
        let body: [UInt8] = [0, 0, 0, 0, 0, 3, 0, 0, 0, 4] + Array("it's".utf8) + [0xff, 0xff, 0xff, 0xff, 0, 0, 0, 2, 0xc3, 0xa9, 0, 0]
        #expect(bytes == [UInt8(ascii: "B"), 0, 0, 0, UInt8(body.count + 4)] + body)
    }

    @Test func bindNamesTheStatementAfterTheUnnamedPortal() {
        let bytes = FrontendMessage.bind(statement: "p1", parameters: []).bytes
        let body: [UInt8] = [0] + Array("p1".utf8) + [0, 0, 0, 0, 0, 0, 0]
        #expect(bytes == [UInt8(ascii: "B"), 0, 0, 0, UInt8(body.count + 4)] + body)
    }

    @Test func describeExecuteSyncAndTerminateAreTheirFixedBytes() {
        #expect(FrontendMessage.describePortal.bytes == [UInt8(ascii: "D"), 0, 0, 0, 6, UInt8(ascii: "P"), 0])
        #expect(FrontendMessage.execute.bytes == [UInt8(ascii: "E"), 0, 0, 0, 9, 0, 0, 0, 0, 0])
        #expect(FrontendMessage.sync.bytes == [UInt8(ascii: "S"), 0, 0, 0, 4])
        #expect(FrontendMessage.terminate.bytes == [UInt8(ascii: "X"), 0, 0, 0, 4])
    }

    @Test func theSASLInitialResponseNamesTheMechanismAndCountsItsData() {
        let bytes = FrontendMessage.saslInitialResponse(mechanism: "SCRAM-SHA-256", data: Array("n,,n=,r=x".utf8)).bytes
        let body = Array("SCRAM-SHA-256".utf8) + [0, 0, 0, 0, 9] + Array("n,,n=,r=x".utf8)
        #expect(bytes == [UInt8(ascii: "p"), 0, 0, 0, UInt8(body.count + 4)] + body)
    }

    @Test func aCancelRequestIsSixteenBytesWithItsCode() {
        #expect(FrontendMessage.cancelRequest(processID: 0x01020304, secretKey: -1).bytes
            == [0, 0, 0, 16, 0x04, 0xd2, 0x16, 0x2e, 1, 2, 3, 4, 0xff, 0xff, 0xff, 0xff])
    }

    func decodeAll(_ bytes: [UInt8]) throws -> [BackendMessage] {
        var decoder = BackendMessageDecoder()
        decoder.append(bytes)
        var messages: [BackendMessage] = []
        while let message = try decoder.next() { messages.append(message) }
        return messages
    }

    @Test func aRowDescriptionDataRowsWithNullAndCommandCompleteDecode() throws {
        var bytes: [UInt8] = [UInt8(ascii: "T"), 0, 0, 0, 27, 0, 1] + Array("id".utf8) + [0]
        bytes += [0, 0, 0, 0, 0, 0, 0, 0, 0, 23, 0, 4, 0xff, 0xff, 0xff, 0xff, 0, 0]
        bytes += [UInt8(ascii: "D"), 0, 0, 0, 17, 0, 2, 0, 0, 0, 3] + Array("4é".utf8) + [0xff, 0xff, 0xff, 0xff]
        bytes += [UInt8(ascii: "C"), 0, 0, 0, 13] + Array("SELECT 1".utf8) + [0]
        bytes += [UInt8(ascii: "Z"), 0, 0, 0, 5, UInt8(ascii: "T")]
        #expect(try decodeAll(bytes) == [
            .rowDescription([PostgresColumn(name: "id", typeOID: 23)]),
            .dataRow(["4é", nil]),
            .commandComplete("SELECT 1"),
            .readyForQuery(.inTransaction),
        ])
    }

    @Test func anErrorResponseKeepsEveryField() throws {
        var body: [UInt8] = []
        for (code, value) in [("S", "ERROR"), ("V", "ERROR"), ("C", "23505"), ("M", "duplicate key"), ("D", "Key (k)=(1) already exists."), ("n", "k_key")] {
            body += [code.utf8.first!] + Array(value.utf8) + [0]
        }
        body += [0]
        let messages = try decodeAll([UInt8(ascii: "E"), 0, 0, 0, UInt8(body.count + 4)] + body)
        guard case .errorResponse(let error) = messages.first else { Issue.record("not an error: \(messages)"); return }
        #expect(error.code == "23505")
        #expect(error.severity == "ERROR")
        #expect(error.constraint == "k_key")
        #expect(error.detail == "Key (k)=(1) already exists.")
        #expect(!PostgresConnection.logText(error).contains("already exists."), "the log line leaves out the detail, which quotes values")
    }

    @Test func authenticationRequestsDecode() throws {
        let sasl: [UInt8] = [UInt8(ascii: "R"), 0, 0, 0, 23, 0, 0, 0, 10] + Array("SCRAM-SHA-256".utf8) + [0, 0]
        let ok: [UInt8] = [UInt8(ascii: "R"), 0, 0, 0, 8, 0, 0, 0, 0]
        let md5: [UInt8] = [UInt8(ascii: "R"), 0, 0, 0, 12, 0, 0, 0, 5, 1, 2, 3, 4]
        #expect(try decodeAll(sasl + ok + md5) == [.authentication(.sasl(mechanisms: ["SCRAM-SHA-256"])), .authentication(.ok), .authentication(.md5Password)])
    }

    @Test func aMessageSplitAtEveryOffsetDecodesOnlyWhenComplete() throws {
        let bytes: [UInt8] = [UInt8(ascii: "C"), 0, 0, 0, 13] + Array("INSERT 0".utf8) + [0]
        for split in 0..<bytes.count {
            var decoder = BackendMessageDecoder()
            decoder.append(bytes[..<split])
            #expect(try decoder.next() == nil, "at \(split)")
            decoder.append(bytes[split...])
            #expect(try decoder.next() == .commandComplete("INSERT 0"))
        }
    }

    @Test func anImpossibleLengthIsAProtocolViolation() {
        var decoder = BackendMessageDecoder()
        decoder.append([UInt8(ascii: "D"), 0x7f, 0xff, 0xff, 0xff])
        #expect(throws: PostgresError.self) { try decoder.next() }
        var short = BackendMessageDecoder()
        short.append([UInt8(ascii: "K"), 0, 0, 0, 6, 0, 0])
        #expect(throws: PostgresError.self) { try short.next() }
    }

    @Test func theAffectedRowsAreTheTagsLastNumber() {
        #expect(PostgresRows(columns: [], rows: [], commandTag: "INSERT 0 3").affectedRows == 3)
        #expect(PostgresRows(columns: [], rows: [], commandTag: "UPDATE 0").affectedRows == 0)
        #expect(PostgresRows(columns: [], rows: [], commandTag: "BEGIN").affectedRows == nil)
    }

    @Test func valuesBindAsPostgresTextForms() {
        #expect(PostgresValue(true) == .text("t"))
        #expect(PostgresValue(nil as Int?) == .null)
        #expect(PostgresValue(bytes: [0x00, 0xff]) == .text("\\x00ff"))
        #expect(PostgresValue(integers: [1, 22]) == .text("{1,22}"))
        #expect(PostgresValue(189.9 as Double) == .text("189.9"))
    }

    @Test func theBackoffDoublesAndStopsAtItsCap() {
        let backoff = ReconnectBackoff(base: 0.1, cap: 5)
        #expect(backoff.delay(afterFailures: 0) == 0)
        #expect(backoff.delay(afterFailures: 1) == 0.1)
        #expect(backoff.delay(afterFailures: 3) == 0.4)
        #expect(backoff.delay(afterFailures: 6) == 3.2)
        #expect(backoff.delay(afterFailures: 7) == 5)
        #expect(backoff.delay(afterFailures: 1000) == 5)
    }
}
