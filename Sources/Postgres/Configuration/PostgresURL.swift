import Crypto

/// `postgres://user:password@host:port/db?param=value` (libpq's URI form, the subset Petty needs), percent-decoded.
/// A host that starts with `/` (in the authority or as `?host=`) is a socket directory; no host at all means
/// Debian's socket directory. TLS is never spoken, so an `sslmode` that demands it is refused with what to do instead.
extension PostgresConfiguration {
    public init(url: String) throws {
        let text = Substring(url)
        guard let schemeEnd = text.firstRange(of: "://"), ["postgres", "postgresql"].contains(text[..<schemeEnd.lowerBound].lowercased()) else {
            throw PostgresError.configuration("the database URL must start with postgres:// or postgresql://")
        }
        var rest = text[schemeEnd.upperBound...]
        var queryText: Substring = ""
        if let question = rest.firstIndex(of: "?") {
            queryText = rest[rest.index(after: question)...]
            rest = rest[..<question]
        }
        var authority = rest
        var pathText: Substring = ""
        if let slash = rest.firstIndex(of: "/") {
            authority = rest[..<slash]
            pathText = rest[rest.index(after: slash)...]
        }

        var user: String?
        var password: String?
        var hostPort = authority
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            hostPort = authority[authority.index(after: at)...]
            if let colon = userInfo.firstIndex(of: ":") {
                user = try Self.decode(userInfo[..<colon], "user")
                password = try Self.decode(userInfo[userInfo.index(after: colon)...], "password")
            } else {
                user = try Self.decode(userInfo, "user")
            }
        }

        var host: String?
        var portText: Substring?
        if hostPort.hasPrefix("[") {
            guard let close = hostPort.firstIndex(of: "]") else { throw PostgresError.configuration("the database URL has an unclosed [ in its host") }
            host = String(hostPort[hostPort.index(after: hostPort.startIndex)..<close])
            let after = hostPort[hostPort.index(after: close)...]
            if after.hasPrefix(":") { portText = after.dropFirst() } else if !after.isEmpty {
                throw PostgresError.configuration("the database URL has text after its [host]")
            }
        } else if let colon = hostPort.lastIndex(of: ":") {
            host = try Self.decode(hostPort[..<colon], "host")
            portText = hostPort[hostPort.index(after: colon)...]
        } else if !hostPort.isEmpty {
            host = try Self.decode(hostPort, "host")
        }
        if host?.isEmpty == true { host = nil }
        var database = pathText.isEmpty ? nil : try Self.decode(pathText, "database name")
        var port = try portText.map { try Self.port($0) } ?? Self.defaultPort
        var applicationName = "petty"
        var connectTimeout = 5.0

        for pair in queryText.split(separator: "&", omittingEmptySubsequences: true) {
            guard let equals = pair.firstIndex(of: "=") else {
                throw PostgresError.configuration("the database URL's parameter '\(pair)' has no value")
            }
            let name = try Self.decode(pair[..<equals], "parameter name")
            let value = try Self.decode(pair[pair.index(after: equals)...], name)
            switch name {
            case "host": host = value.isEmpty ? nil : value
            case "port": port = try Self.port(Substring(value))
            case "user": user = value
            case "password": password = value
            case "dbname": database = value
            case "application_name": applicationName = value
            case "connect_timeout":
                guard let seconds = Double(value), seconds > 0 else {
                    throw PostgresError.configuration("connect_timeout must be a positive number of seconds")
                }
                connectTimeout = seconds
            case "sslmode": try Self.checkSSLMode(value)
            default: throw PostgresError.configuration("the database URL's parameter '\(name)' is not supported")
            }
        }

        let resolvedUser = user.flatMap { $0.isEmpty ? nil : $0 } ?? Self.processUserName()
        let directory = host ?? Self.defaultSocketDirectory
        let endpoint: Endpoint = directory.hasPrefix("/")
            ? .unixSocket(path: "\(directory.hasSuffix("/") ? String(directory.dropLast()) : directory)/.s.PGSQL.\(port)")
            : .tcp(host: directory, port: port)
        self.init(
            endpoint: endpoint, user: resolvedUser, password: password?.isEmpty == true ? nil : password,
            database: database.flatMap { $0.isEmpty ? nil : $0 } ?? resolvedUser, applicationName: applicationName,
            connectTimeout: connectTimeout)
    }

    static func checkSSLMode(_ mode: String) throws {
        switch mode {
        case "disable", "allow", "prefer": return
        case "require", "verify-ca", "verify-full":
            throw PostgresError.configuration(
                "sslmode=\(mode) asks for TLS, which Petty does not speak to PostgreSQL: connect over a local socket "
                    + "(postgres:///db?host=/var/run/postgresql), a private network, or a TLS tunnel, and drop sslmode or set it to disable")
        default:
            throw PostgresError.configuration("sslmode=\(mode) is not a known mode (disable, allow, prefer)")
        }
    }

    static func port(_ text: Substring) throws -> Int {
        guard let port = Int(text), (1...65535).contains(port) else {
            throw PostgresError.configuration("the database port '\(text)' is not a number from 1 to 65535")
        }
        return port
    }

    /// Percent-decoding (RFC 3986 §2.1); `what` names the part in the error without echoing it (it may be the password).
    static func decode(_ text: Substring, _ what: String) throws -> String {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8)[...]
        while let byte = iterator.popFirst() {
            guard byte == UInt8(ascii: "%") else { bytes.append(byte); continue }
            guard iterator.count >= 2, let high = Hex.digitValue(iterator.removeFirst()), let low = Hex.digitValue(iterator.removeFirst()) else {
                throw PostgresError.configuration("the database URL's \(what) has a bad percent-escape")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw PostgresError.configuration("the database URL's \(what) is not UTF-8 once decoded")
        }
        return decoded
    }
}
