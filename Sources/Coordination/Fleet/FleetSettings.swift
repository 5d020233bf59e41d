import Foundation

/// A fleet member's configuration: `PETTY_ETCD_ENDPOINTS`, `PETTY_ETCD_USERNAME` / `PETTY_ETCD_PASSWORD`,
/// `PETTY_FLEET`, `PETTY_ADVERTISE_URL`, `PETTY_LEASE_SECONDS`.
public struct FleetSettings: Equatable, Sendable {
    public var endpoints: [URL]
    public var credentials: EtcdCredentials?
    public var fleet: String
    /// How the other members reach this one (they download the dataset from it when it leads).
    public var advertiseURL: URL
    public var leaseSeconds: Int64

    public static let defaultFleet = "petty"
    public static let defaultLeaseSeconds: Int64 = 10

    public init(endpoints: [URL], credentials: EtcdCredentials? = nil, fleet: String = defaultFleet, advertiseURL: URL, leaseSeconds: Int64 = defaultLeaseSeconds) {
        self.endpoints = endpoints
        self.credentials = credentials
        self.fleet = fleet
        self.advertiseURL = advertiseURL
        self.leaseSeconds = leaseSeconds
    }

    /// The member's name in `/<fleet>/members/`: its advertised host and port.
    public var memberName: String {
        let host = advertiseURL.host ?? "member"
        return advertiseURL.port.map { "\(host):\($0)" } ?? host
    }

    /// A keep-alive every third of the lease.
    public var keepAliveInterval: Double { Double(leaseSeconds) / 3 }

    /// Each etcd call's deadline: short, so a dead endpoint costs about a keep-alive interval. Whole seconds:
    /// URLSession on Linux hands libcurl whole seconds, and a fraction below one second fails every call at once.
    public var requestTimeout: Double { min(2, max(1, (keepAliveInterval / 2).rounded(.up))) }

    /// `http://a:2379,https://b:2379` -> URLs, or why not.
    public static func endpoints(_ raw: String) -> Result<[URL], FleetSettingsError> {
        var urls: [URL] = []
        for part in raw.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !part.isEmpty {
            guard let url = URL(string: part), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil,
                  url.query == nil, url.path.isEmpty || url.path == "/"
            else { return .failure(FleetSettingsError("PETTY_ETCD_ENDPOINTS: '\(part)' is not an http(s)://host:port URL")) }
            urls.append(url)
        }
        return urls.isEmpty ? .failure(FleetSettingsError("PETTY_ETCD_ENDPOINTS: no endpoint given")) : .success(urls)
    }

    /// A fleet name is one key segment: letters, digits, `-`, `_`, `.`.
    public static func isValidFleet(_ name: String) -> Bool {
        !name.isEmpty && name.count <= 64 && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "-_.".contains($0)) }
    }
}

public struct FleetSettingsError: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
