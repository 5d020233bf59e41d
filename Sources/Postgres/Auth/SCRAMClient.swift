import Crypto

/// The client side of SCRAM-SHA-256 (RFC 5802, RFC 7677) without channel binding, as PostgreSQL runs it over SASL.
/// Three steps: `clientFirst`, then `clientFinal(serverFirst:)`, then `verify(serverFinal:)`, which proves the server
/// knew the password too. The password is SASLprep'd only when it is ASCII (identity); see `init`.
struct SCRAMClient {
    static let mechanism = "SCRAM-SHA-256"
    /// PostgreSQL's default is 4,096; refuse absurd counts a hostile server could use to burn our CPU.
    static let maxIterations = 1_000_000

    private let password: [UInt8]
    private let clientNonce: String
    private let clientFirstBare: String
    private var expectedServerSignature: [UInt8]?

    /// `user` is sent in the first message; PostgreSQL ignores it (it uses the startup user) and libpq sends it empty.
    init(user: String = "", password: String, nonce: String? = nil) {
        self.password = Array(password.utf8)
        var generator = SystemRandomNumberGenerator()
        let nonce = nonce ?? Base64.encode((0..<18).map { _ in UInt8.random(in: 0...255, using: &generator) })
        self.clientNonce = nonce
        // RFC 5802 §5.1 saslname: '=' as "=3D", ',' as "=2C".
        let escapedUser = user.reduce(into: "") { out, character in
            switch character {
            case "=": out += "=3D"
            case ",": out += "=2C"
            default: out.append(character)
            }
        }
        self.clientFirstBare = "n=\(escapedUser),r=\(nonce)"
    }

    /// gs2 header "n,,": the client does not support channel binding.
    var clientFirst: [UInt8] { Array("n,,\(clientFirstBare)".utf8) }

    mutating func clientFinal(serverFirst: [UInt8]) throws -> [UInt8] {
        let serverFirstText = String(decoding: serverFirst, as: UTF8.self)
        let attributes = Self.attributes(serverFirstText)
        guard let nonce = attributes["r"], nonce.hasPrefix(clientNonce), nonce.count > clientNonce.count else {
            throw PostgresError.authentication("SCRAM: the server's nonce does not extend ours")
        }
        guard let saltText = attributes["s"], let salt = Base64.decode(saltText) else {
            throw PostgresError.authentication("SCRAM: the server sent no usable salt")
        }
        guard let iterationText = attributes["i"], let iterations = Int(iterationText), (1...Self.maxIterations).contains(iterations) else {
            throw PostgresError.authentication("SCRAM: the server sent an unusable iteration count")
        }
        let saltedPassword = PBKDF2SHA256.derive(password: password, salt: salt, iterations: iterations, length: 32)
        let clientKey = HMACSHA256.authenticationCode(for: Array("Client Key".utf8), key: saltedPassword)
        let storedKey = SHA256.hash(clientKey)
        let withoutProof = "c=biws,r=\(nonce)" // biws = base64("n,,")
        let authMessage = Array("\(clientFirstBare),\(serverFirstText),\(withoutProof)".utf8)
        let clientSignature = HMACSHA256.authenticationCode(for: authMessage, key: storedKey)
        let proof = zip(clientKey, clientSignature).map { $0 ^ $1 }
        let serverKey = HMACSHA256.authenticationCode(for: Array("Server Key".utf8), key: saltedPassword)
        expectedServerSignature = HMACSHA256.authenticationCode(for: authMessage, key: serverKey)
        return Array("\(withoutProof),p=\(Base64.encode(proof))".utf8)
    }

    func verify(serverFinal: [UInt8]) throws {
        let attributes = Self.attributes(String(decoding: serverFinal, as: UTF8.self))
        if let error = attributes["e"] { throw PostgresError.authentication("SCRAM: the server said \(error)") }
        guard let expected = expectedServerSignature, let text = attributes["v"], let signature = Base64.decode(text),
              constantTimeEquals(signature, expected) else {
            throw PostgresError.authentication("SCRAM: the server's signature is wrong: it does not know the password")
        }
    }

    /// `a=value,b=value`: values may contain '=' (base64) but never ','.
    static func attributes(_ text: String) -> [String: String] {
        var result: [String: String] = [:]
        for part in text.split(separator: ",") {
            guard let equals = part.firstIndex(of: "="), part.distance(from: part.startIndex, to: equals) == 1 else { continue }
            result[String(part[..<equals])] = String(part[part.index(after: equals)...])
        }
        return result
    }
}
