import HTTP

/// Server limits and timeouts from the environment; unset variables keep the production defaults.
enum ServerLimitsEnvironment {
    static let variables: [(name: String, range: ClosedRange<Double>, apply: @Sendable (inout ServerConfiguration, Double) -> Void)] = [
        ("PETTY_IDLE_TIMEOUT_SECONDS", 1...3600, { $0.idleTimeoutSeconds = $1 }),
        ("PETTY_HEADER_TIMEOUT_SECONDS", 1...600, { $0.headerTimeoutSeconds = $1 }),
        ("PETTY_BODY_TIMEOUT_SECONDS", 1...600, { $0.bodyTimeoutSeconds = $1 }),
        ("PETTY_BODY_IDLE_TIMEOUT_SECONDS", 1...600, { $0.bodyIdleTimeoutSeconds = $1 }),
        ("PETTY_WRITE_TIMEOUT_SECONDS", 1...600, { $0.writeTimeoutSeconds = $1 }),
        ("PETTY_SHUTDOWN_GRACE_SECONDS", 0...120, { $0.shutdownGraceSeconds = $1 }),
        ("PETTY_MAX_CONNECTIONS", 1...1_000_000, { $0.maxConnections = Int($1) }),
        ("PETTY_MAX_BODY_BYTES", 0...(64 * 1024 * 1024), { $0.limits.maxBodyBytes = Int($1) }),
    ]

    static func apply(_ env: [String: String], to server: inout ServerConfiguration) throws {
        for variable in variables {
            guard let raw = env[variable.name], !raw.isEmpty else { continue }
            variable.apply(&server, try number(raw, name: variable.name, in: variable.range))
        }
    }

    /// `--body-timeout`: the range of its environment fallback.
    static func seconds(_ raw: String, name: String) throws -> Double {
        try number(raw, name: name, in: 1...600)
    }

    static func number(_ raw: String, name: String, in range: ClosedRange<Double>) throws -> Double {
        guard let value = Double(raw), range.contains(value) else {
            throw CommandLineError("\(name) must be a number from \(Int(range.lowerBound)) to \(Int(range.upperBound)), got '\(raw)'")
        }
        return value
    }
}
