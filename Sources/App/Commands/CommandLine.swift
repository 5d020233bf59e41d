import API
import Foundation
import HTTP
import Postgres
import Providers

/// `Run serve [--hostname/-H h] [--port/-p n] [--env/-e name] [--threads n] [--data-dir path] [--public-dir path] [--log-level level]`
/// and `Run routes`.
public enum Command: Equatable, Sendable {
    case serve
    case routes
    /// Prints the persisted snapshot as JSON (for inspection or hand repair; `snapshot.json` is imported on start).
    case export
    /// Replays the bundled daily history and prints how often the cycle advice was right (`BacktestReport`).
    case backtest
    /// `data check DIR`: verifies every file of a data directory (`DataCheck`).
    case dataCheck(directory: String)
    /// `data copy FROM TO`: copies a whole data directory (`DataCopy`).
    case dataCopy(from: String, to: String)
    /// `data unpin DIR`: sets the persisted dataset's version to 0 so a follower takes its leader's next (`DataUnpin`).
    case dataUnpin(directory: String)
    case help

    /// The commands without operands, by the word that names them.
    static let named: [String: Command] = ["serve": .serve, "routes": .routes, "export": .export, "backtest": .backtest, "help": .help]
}

public struct CommandLineError: Error, CustomStringConvertible, Sendable {
    public let description: String
    init(_ message: String) { description = message }
}

public enum CommandLineParser {
    public static let usage = """
        Usage: Run <command> [options]

        Commands:
          serve     Start the HTTP server (default)
          routes    Print the route table
          export    Print the persisted snapshot (from --data-dir) as JSON
          backtest  Replay the bundled daily history: the cycle advice against the three baselines
          data check <dir>         Verify every file of a data directory; exit 1 on any problem
          data copy <from> <to>    Copy a whole data directory (stopped servers only) and check the copy
          data unpin <dir>         Clear a version pin (stopped server): version 0, so the leader's next dataset is taken

        Options for serve (environment fallbacks in brackets):
          -H, --hostname <host>    Address to bind [PETTY_HOSTNAME] (default 127.0.0.1)
          -p, --port <port>        Port to bind, 0 for any free port [PETTY_PORT] (default 8080)
          -e, --env <name>         production | development | testing [PETTY_ENV] (default development)
              --threads <n>        Event loop threads [PETTY_THREADS] (default: one per core)
              --data-dir <path>    Where the store persists [PETTY_DATA_DIR] (default ./data)
              --public-dir <path>  Static files [PETTY_PUBLIC_DIR] (default Public)
              --public-url <url>   Base of absolute URLs on share pages [PETTY_PUBLIC_URL] (default http://host:port)
              --log-level <level>  trace | debug | info | notice | warning | error [PETTY_LOG_LEVEL] (default info)
              --body-timeout <s>   A request body's total deadline, in seconds [PETTY_BODY_TIMEOUT_SECONDS] (default 30)
              --database-url <url>     Price alerts' PostgreSQL, postgres://user:password@host:port/db or
                                       postgres:///db?host=/var/run/postgresql [PETTY_DATABASE_URL] (default: alerts off)
              --etcd-endpoints <urls>  Fleet mode: etcd v3 endpoints, comma-separated [PETTY_ETCD_ENDPOINTS]
              --etcd-username <name>, --etcd-password <secret>  etcd auth [PETTY_ETCD_USERNAME, PETTY_ETCD_PASSWORD]
              --fleet <name>           Key prefix in etcd [PETTY_FLEET] (default petty)
              --advertise-url <url>    How other members reach this one [PETTY_ADVERTISE_URL] (default http://host:port)
              --lease-seconds <n>      Leader lease TTL [PETTY_LEASE_SECONDS] (default 10)
        """

    /// Parses `arguments` (without the program name) over a configuration taken from `environment`.
    public static func parse(_ arguments: [String], environment: [String: String]) throws -> (Command, AppConfiguration) {
        var config = try fromEnvironment(environment)
        var arguments = arguments[...]
        var command = Command.serve
        if arguments.first == "data" { return (try dataCommand(Array(arguments.dropFirst())), config) }
        if let first = arguments.first, !first.hasPrefix("-") {
            guard let named = Command.named[first] else {
                throw CommandLineError("unknown command '\(first)'; expected serve or routes")
            }
            command = named
            arguments = arguments.dropFirst()
        }
        while let flag = arguments.popFirst() {
            if flag == "--help" || flag == "-h" { return (.help, config) }
            var name = flag
            var inlineValue: String?
            if let eq = flag.firstIndex(of: "="), flag.hasPrefix("--") {
                name = String(flag[..<eq])
                inlineValue = String(flag[flag.index(after: eq)...])
            }
            func value() throws -> String {
                if let inlineValue { return inlineValue }
                guard let next = arguments.popFirst() else { throw CommandLineError("\(name) needs a value") }
                return next
            }
            switch name {
            case "-H", "--hostname": config.hostname = try value()
            case "-p", "--port": config.port = try port(try value(), source: name)
            case "-e", "--env": config.environment = .named(try value())
            case "--threads": config.threads = try threads(try value(), source: name)
            case "--data-dir": config.dataDirectory = try value()
            case "--public-dir": config.publicDirectory = try value()
            case "--public-url": config.publicURL = try publicURL(try value(), source: name)
            case "--log-level": config.logLevel = try level(try value(), source: name)
            case "--database-url": config.database = try database(try value(), source: name)
            case "--body-timeout": config.server.bodyTimeoutSeconds = try ServerLimitsEnvironment.seconds(try value(), name: name)
            case _ where FleetOptions.flags.contains(name): try config.fleet.set(name, try value())
            default: throw CommandLineError("unknown option '\(flag)'")
            }
        }
        if !config.fleet.endpoints.isEmpty, config.followURL != nil {
            throw CommandLineError("PETTY_FOLLOW_URL and PETTY_ETCD_ENDPOINTS exclude each other: a fleet member follows the elected leader")
        }
        return (command, config)
    }

    static func dataCommand(_ arguments: [String]) throws -> Command {
        switch (arguments.first, arguments.count) {
        case ("check", 2): return .dataCheck(directory: arguments[1])
        case ("copy", 3): return .dataCopy(from: arguments[1], to: arguments[2])
        case ("unpin", 2): return .dataUnpin(directory: arguments[1])
        default: throw CommandLineError("expected 'data check <dir>', 'data copy <from> <to>' or 'data unpin <dir>'")
        }
    }

    static func fromEnvironment(_ env: [String: String]) throws -> AppConfiguration {
        var config = AppConfiguration()
        if let value = env["PETTY_HOSTNAME"], !value.isEmpty { config.hostname = value }
        if let value = env["PETTY_PORT"], !value.isEmpty { config.port = try port(value, source: "PETTY_PORT") }
        if let value = env["PETTY_ENV"], !value.isEmpty { config.environment = .named(value) }
        if let value = env["PETTY_THREADS"], !value.isEmpty { config.threads = try threads(value, source: "PETTY_THREADS") }
        if let value = env["PETTY_DATA_DIR"], !value.isEmpty { config.dataDirectory = value }
        if let value = env["PETTY_PUBLIC_DIR"], !value.isEmpty { config.publicDirectory = value }
        if let value = env["PETTY_APPSTORE_ID"], !value.isEmpty { config.appStoreID = value }
        if let value = env["PETTY_PUBLIC_URL"], !value.isEmpty { config.publicURL = try publicURL(value, source: "PETTY_PUBLIC_URL") }
        if let value = env["PETTY_APPLE_APP_ID"], !value.isEmpty {
            do { config.apple = try AppleAppLink(appID: value) } catch { throw CommandLineError("\(error)") }
        }
        config.android = try android(package: env["PETTY_ANDROID_PACKAGE"] ?? "", fingerprints: env["PETTY_ANDROID_CERT_SHA256"] ?? "")
        if let value = env["PETTY_SAMPLE_DATA"], !value.isEmpty {
            switch value.lowercased() {
            case "on", "true", "1", "yes": config.loadSampleData = true
            case "off", "false", "0", "no": config.loadSampleData = false
            default: throw CommandLineError("PETTY_SAMPLE_DATA must be on or off, got '\(value)'")
            }
        }
        if let value = env["PETTY_TRUSTED_PROXIES"], !value.isEmpty {
            do { config.trustedProxies = try TrustedProxyMiddleware.parse(value) } catch {
                throw CommandLineError("PETTY_TRUSTED_PROXIES: \(error)")
            }
        }
        if let value = env["PETTY_FOLLOW_URL"], !value.isEmpty {
            guard let url = URL(string: value), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil, url.query == nil else {
                throw CommandLineError("PETTY_FOLLOW_URL must be an http(s) URL of the leader, e.g. http://10.0.0.5:8080, got '\(value)'")
            }
            config.followURL = url
        }
        if let value = env["PETTY_FOLLOW_SECONDS"], !value.isEmpty {
            guard let seconds = Double(value), seconds >= 1, seconds <= 3600 else {
                throw CommandLineError("PETTY_FOLLOW_SECONDS must be a number of seconds from 1 to 3600, got '\(value)'")
            }
            config.followSeconds = seconds
        }
        if let value = env["PETTY_FOLLOWERS"], !value.isEmpty {
            do { config.followers = try TrustedProxyMiddleware.parse(value) } catch {
                throw CommandLineError("PETTY_FOLLOWERS: \(error)")
            }
        }
        if let value = env["PETTY_DATABASE_URL"], !value.isEmpty { config.database = try database(value, source: "PETTY_DATABASE_URL") }
        try ServerLimitsEnvironment.apply(env, to: &config.server)
        try config.fleet.apply(env)
        if let value = env["PETTY_LOG_LEVEL"], !value.isEmpty { config.logLevel = try level(value, source: "PETTY_LOG_LEVEL") }
        do {
            config.providers = try ProviderSettings.fromEnvironment(env, userAgent: ProviderClient.defaultUserAgent(version: Entrypoint.version))
        } catch { throw CommandLineError("\(error)") }
        return config
    }

    /// The URL is never echoed: it may hold a password. `sslmode=require` is refused here, so the server does not start.
    static func database(_ raw: String, source: String) throws -> PostgresConfiguration {
        do { return try PostgresConfiguration(url: raw) } catch let error as PostgresError {
            if case .configuration(let reason) = error { throw CommandLineError("\(source): \(reason)") }
            throw CommandLineError("\(source): \(error)")
        }
    }

    static func publicURL(_ raw: String, source: String) throws -> PublicURL {
        do { return try PublicURL(validating: raw, name: source) } catch { throw CommandLineError("\(error)") }
    }

    /// Both or neither: a package without fingerprints (or the reverse) cannot verify.
    static func android(package: String, fingerprints: String) throws -> AndroidAppLink? {
        switch (package.isEmpty, fingerprints.isEmpty) {
        case (true, true): return nil
        case (true, false): throw CommandLineError("PETTY_ANDROID_CERT_SHA256 is set but PETTY_ANDROID_PACKAGE is not")
        default:
            do { return try AndroidAppLink(package: package, fingerprints: fingerprints) } catch { throw CommandLineError("\(error)") }
        }
    }

    static func port(_ raw: String, source: String) throws -> Int {
        guard let port = Int(raw), (0...65535).contains(port) else {
            throw CommandLineError("\(source) must be a port number from 0 to 65535, got '\(raw)'")
        }
        return port
    }

    static func threads(_ raw: String, source: String) throws -> Int {
        guard let threads = Int(raw), (1...256).contains(threads) else {
            throw CommandLineError("\(source) must be a thread count from 1 to 256, got '\(raw)'")
        }
        return threads
    }

    static func level(_ raw: String, source: String) throws -> Logger.Level {
        guard let level = Logger.Level(name: raw == "warn" ? "warning" : raw) else {
            throw CommandLineError("\(source) must be one of trace, debug, info, notice, warning, error, got '\(raw)'")
        }
        return level
    }
}
