import Coordination
import Foundation

/// The fleet's settings as given (environment, then `serve` flags); `settings(hostname:port:)` completes them
/// once the listening address is known. No endpoints: a single instance, exactly as without etcd.
public struct FleetOptions: Sendable, Equatable {
    public var endpoints: [URL] = []
    public var username: String?
    public var password: String?
    public var fleet = FleetSettings.defaultFleet
    public var advertiseURL: URL?
    public var leaseSeconds = FleetSettings.defaultLeaseSeconds
    /// `PETTY_FLEET_SECRET`: signs and checks every dataset the fleet copies (`DatasetSignature`). From the
    /// environment only, never a flag: a process's arguments are visible to every user of the machine.
    public var secret: String?

    public init() {}

    /// Each flag and the variable it stands for.
    static let variables: [String: String] = [
        "--etcd-endpoints": "PETTY_ETCD_ENDPOINTS", "--etcd-username": "PETTY_ETCD_USERNAME",
        "--etcd-password": "PETTY_ETCD_PASSWORD", "--fleet": "PETTY_FLEET", "--advertise-url": "PETTY_ADVERTISE_URL",
        "--lease-seconds": "PETTY_LEASE_SECONDS",
    ]
    static var flags: Set<String> { Set(variables.keys) }

    mutating func apply(_ env: [String: String]) throws(CommandLineError) {
        for (flag, variable) in Self.variables.sorted(by: { $0.key < $1.key }) {
            if let value = env[variable], !value.isEmpty { try set(flag, value, source: variable) }
        }
        if let value = env["PETTY_FLEET_SECRET"], !value.isEmpty {
            guard value.utf8.count >= 16 else { throw CommandLineError("PETTY_FLEET_SECRET must be at least 16 characters") }
            secret = value
        }
    }

    mutating func set(_ flag: String, _ value: String) throws(CommandLineError) {
        try set(flag, value, source: flag)
    }

    private mutating func set(_ flag: String, _ value: String, source: String) throws(CommandLineError) {
        switch flag {
        case "--etcd-endpoints":
            switch FleetSettings.endpoints(value) {
            case .success(let urls): endpoints = urls
            case .failure(let error): throw CommandLineError(error.description.replacingOccurrences(of: "PETTY_ETCD_ENDPOINTS", with: source))
            }
        case "--etcd-username": username = value
        case "--etcd-password": password = value
        case "--fleet":
            guard FleetSettings.isValidFleet(value) else {
                throw CommandLineError("\(source) must be letters, digits, '-', '_' or '.' (at most 64), got '\(value)'")
            }
            fleet = value
        case "--advertise-url":
            guard let url = URL(string: value), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
                  url.query == nil, url.path.isEmpty || url.path == "/"
            else { throw CommandLineError("\(source) must be an http(s)://host:port URL other members can reach, got '\(value)'") }
            advertiseURL = url
        case "--lease-seconds":
            guard let seconds = Int64(value), (2...300).contains(seconds) else {
                throw CommandLineError("\(source) must be a number of seconds from 2 to 300, got '\(value)'")
            }
            leaseSeconds = seconds
        default:
            throw CommandLineError("unknown option '\(flag)'")
        }
    }

    /// The member's settings, or nil without endpoints. Without an advertised URL, the listening address.
    func settings(hostname: String, port: Int) throws(CommandLineError) -> FleetSettings? {
        guard !endpoints.isEmpty else { return nil }
        guard (username == nil) == (password == nil) else {
            throw CommandLineError("PETTY_ETCD_USERNAME and PETTY_ETCD_PASSWORD go together; one is not set")
        }
        let host = ["0.0.0.0", "::", ""].contains(hostname) ? ProcessInfo.processInfo.hostName : hostname
        guard let advertised = advertiseURL ?? URL(string: "http://\(host):\(port)") else {
            throw CommandLineError("set PETTY_ADVERTISE_URL: http://\(host):\(port) is not a URL")
        }
        let credentials = username.map { EtcdCredentials(username: $0, password: password ?? "") }
        return FleetSettings(endpoints: endpoints, credentials: credentials, fleet: fleet, advertiseURL: advertised, leaseSeconds: leaseSeconds)
    }
}
