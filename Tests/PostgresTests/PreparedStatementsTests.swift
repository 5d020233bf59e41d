import Testing
@testable import Postgres

/// Which name each statement is parsed and bound by within one session.
struct PreparedStatementsTests {
    @Test func aStatementIsParsedOnceThenBoundByItsName() {
        var statements = PreparedStatements()
        let first = statements.statement(for: "SELECT 1")
        #expect(first.name == "petty_1" && !first.parsed)
        statements.parsed("SELECT 1", as: first.name)
        let again = statements.statement(for: "SELECT 1")
        #expect(again.name == "petty_1" && again.parsed)
        #expect(statements.statement(for: "SELECT 2").name == "petty_2")
    }

    @Test func aRefusedParseLeavesItsNameForTheNextStatementAndAForgottenOneIsNeverReused() {
        var statements = PreparedStatements()
        #expect(statements.statement(for: "SELEC 1").name == "petty_1") // the server answers a syntax error
        let next = statements.statement(for: "SELECT 1")
        #expect(next.name == "petty_1", "the server never created petty_1")
        statements.parsed("SELECT 1", as: next.name)
        statements.forget("SELECT 1") // its plan went stale; the server still holds petty_1
        #expect(statements.statement(for: "SELECT 1").name == "petty_2")
    }

    @Test func pastTheLimitStatementsAreParsedUnnamedEachTime() {
        var statements = PreparedStatements()
        for n in 0..<PreparedStatements.limit {
            let statement = statements.statement(for: "SELECT \(n)")
            statements.parsed("SELECT \(n)", as: statement.name)
        }
        let beyond = statements.statement(for: "SELECT -1")
        #expect(beyond.name == "" && !beyond.parsed)
        statements.parsed("SELECT -1", as: beyond.name)
        #expect(!statements.statement(for: "SELECT -1").parsed)
        #expect(statements.statement(for: "SELECT 0").parsed)
    }
}
