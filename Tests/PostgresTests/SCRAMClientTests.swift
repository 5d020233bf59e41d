import Testing
import Crypto
@testable import Postgres

/// The client steps against RFC 7677 §3 (user "user", password "pencil", the RFC's nonce).
struct SCRAMClientTests {
    let serverFirst = Array("r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096".utf8)

    func client() -> SCRAMClient { SCRAMClient(user: "user", password: "pencil", nonce: "rOprNGfwEbeRWgbNEkqO") }

    @Test func theFirstAndFinalMessagesMatchTheRFC() throws {
        var scram = client()
        #expect(String(decoding: scram.clientFirst, as: UTF8.self) == "n,,n=user,r=rOprNGfwEbeRWgbNEkqO")
        let final = try scram.clientFinal(serverFirst: serverFirst)
        #expect(String(decoding: final, as: UTF8.self)
            == "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")
        try scram.verify(serverFinal: Array("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=".utf8))
    }

    @Test func aServerSignatureDifferingInOneBitIsRefused() throws {
        var scram = client()
        _ = try scram.clientFinal(serverFirst: serverFirst)
        #expect(throws: PostgresError.self) { try scram.verify(serverFinal: Array("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G8=".utf8)) }
        #expect(throws: PostgresError.self) { try scram.verify(serverFinal: Array("e=invalid-proof".utf8)) }
    }

    @Test func aServerNonceThatDoesNotExtendOursIsRefused() {
        var scram = client()
        #expect(throws: PostgresError.self) {
            _ = try scram.clientFinal(serverFirst: Array("r=somethingElse,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096".utf8))
        }
        #expect(throws: PostgresError.self) {
            _ = try scram.clientFinal(serverFirst: Array("r=rOprNGfwEbeRWgbNEkqO,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096".utf8))
        }
    }

    @Test func absurdOrMissingIterationCountsAreRefused() {
        for count in ["0", "-1", "2000000", "x"] {
            var scram = client()
            #expect(throws: PostgresError.self, "i=\(count)") {
                _ = try scram.clientFinal(serverFirst: Array("r=rOprNGfwEbeRWgbNEkqOabc,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=\(count)".utf8))
            }
        }
    }

    @Test func aVerifyBeforeTheFinalStepIsRefused() {
        #expect(throws: PostgresError.self) { try client().verify(serverFinal: Array("v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=".utf8)) }
    }

    @Test func generatedNoncesArePrintableAndDiffer() {
        let first = String(decoding: SCRAMClient(password: "p").clientFirst, as: UTF8.self)
        let second = String(decoding: SCRAMClient(password: "p").clientFirst, as: UTF8.self)
        #expect(first.hasPrefix("n,,n=,r="))
        #expect(first != second)
        #expect(!first.dropFirst(8).contains(","))
    }
}
