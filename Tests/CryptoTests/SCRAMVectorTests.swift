import Testing
import Crypto

/// RFC 7677 §3's SCRAM-SHA-256 exchange (user "user", password "pencil") computed end to end from the primitives
/// as RFC 5802 §3 defines them: the client proof and the server signature must match the published messages.
struct SCRAMVectorTests {
    let clientFirstBare = "n=user,r=rOprNGfwEbeRWgbNEkqO"
    let serverFirst = "r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096"
    let clientFinalWithoutProof = "c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"

    @Test func theClientProofAndServerSignatureMatchRFC7677() throws {
        let salt = try #require(Base64.decode("W22ZaJ0SNY7soEsUEjb6gQ=="))
        let saltedPassword = PBKDF2SHA256.derive(password: Array("pencil".utf8), salt: salt, iterations: 4096, length: 32)
        let clientKey = HMACSHA256.authenticationCode(for: Array("Client Key".utf8), key: saltedPassword)
        let storedKey = SHA256.hash(clientKey)
        let authMessage = Array("\(clientFirstBare),\(serverFirst),\(clientFinalWithoutProof)".utf8)
        let clientSignature = HMACSHA256.authenticationCode(for: authMessage, key: storedKey)
        let proof = zip(clientKey, clientSignature).map { $0 ^ $1 }
        #expect(Base64.encode(proof) == "dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")

        let serverKey = HMACSHA256.authenticationCode(for: Array("Server Key".utf8), key: saltedPassword)
        let serverSignature = HMACSHA256.authenticationCode(for: authMessage, key: serverKey)
        #expect(Base64.encode(serverSignature) == "6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=")
    }
}
