#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Sets `request.clientAddress` from `X-Forwarded-For` / `X-Real-IP`, but only when the TCP peer is a trusted proxy.
///
/// `X-Forwarded-For` is walked from the right: each hop appended by a trusted proxy is skipped, and the first
/// address that is not trusted is the client. Entries left of it were written by the client and can be forged,
/// so they are never used. Without `X-Forwarded-For`, a valid `X-Real-IP` is used. A request whose peer is not
/// trusted keeps its peer address, whatever its headers say. Put this middleware first so logs see the result.
public struct TrustedProxyMiddleware: Middleware {
    /// Loopback only: nginx on the same host.
    public static let defaultTrusted = ["127.0.0.0/8", "::1"]

    public let trusted: [IPAddressRange]

    /// `trusted` entries are IPs or CIDR ranges (`127.0.0.1`, `::1`, `10.0.0.0/8`, `fd00::/8`).
    /// An invalid entry is a programmer error; use `parse(_:)` for configuration from outside.
    public init(trusted: [String] = TrustedProxyMiddleware.defaultTrusted) {
        self.trusted = trusted.map { entry in
            guard let range = IPAddressRange(entry) else { preconditionFailure("invalid trusted proxy entry '\(entry)'") }
            return range
        }
    }

    /// Ranges as `parse(_:)` returns them: `TrustedProxyMiddleware(ranges: try .parse(list))`.
    public init(ranges: [IPAddressRange]) {
        self.trusted = ranges
    }

    /// Parses `PETTY_TRUSTED_PROXIES`: a comma-separated list of IPs and CIDR ranges; blank items are skipped.
    public static func parse(_ list: String) throws -> [IPAddressRange] {
        try list.split(separator: ",").map { $0.trimmingASCIIWhitespace() }.filter { !$0.isEmpty }.map { entry in
            guard let range = IPAddressRange(entry) else { throw InvalidEntry(entry: entry) }
            return range
        }
    }

    public struct InvalidEntry: Error, CustomStringConvertible, Sendable, Equatable {
        public let entry: String
        public var description: String { "trusted proxy '\(entry)' is not an IP address or CIDR range (e.g. 10.0.0.0/8, ::1)" }
    }

    public func respond(to request: Request, chainingTo next: Responder) throws -> Response {
        // Most requests carry neither header: skip parsing the peer address at all.
        let headers = request.headers
        guard headers.contains(name: "X-Forwarded-For") || headers.contains(name: "X-Real-IP"),
              isTrusted(request.peerAddress), let client = forwardedClient(headers) else {
            return try next.respond(to: request)
        }
        var request = request
        request.clientAddress = client
        return try next.respond(to: request)
    }

    func isTrusted(_ text: String) -> Bool {
        guard let address = IPAddress(text) else { return false }
        return isTrusted(address)
    }

    func isTrusted(_ address: IPAddress) -> Bool {
        trusted.contains { $0.contains(address) }
    }

    /// The client as the trusted proxies report it, or nil to keep the peer address.
    func forwardedClient(_ headers: HTTPHeaders) -> String? {
        let hops = headers["X-Forwarded-For"].flatMap { $0.split(separator: ",") }.map { $0.trimmingASCIIWhitespace() }
        if !hops.isEmpty {
            var nearest: IPAddress?
            for hop in hops.reversed() {
                // Garbage means the chain can no longer be followed: keep the last hop that a trusted proxy vouched for.
                guard let address = IPAddress(hop) else { return nearest?.description }
                if !isTrusted(address) { return address.description }
                nearest = address
            }
            // Every hop is a trusted proxy: the leftmost is as close to the client as we can know.
            return nearest?.description
        }
        if let realIP = headers.first(name: "X-Real-IP"), let address = IPAddress(realIP.trimmingASCIIWhitespace()) {
            return address.description
        }
        return nil
    }
}

/// A numeric IPv4 or IPv6 address. IPv4-mapped IPv6 addresses (`::ffff:1.2.3.4`) are read as IPv4.
public struct IPAddress: Sendable, Hashable, CustomStringConvertible {
    /// 4 bytes for IPv4, 16 for IPv6, network order.
    public let bytes: [UInt8]

    /// Accepts `1.2.3.4`, `1.2.3.4:5678`, `::1`, `[::1]`, `[::1]:443`; a zone (`fe80::1%eth0`) is ignored.
    public init?(_ text: String) {
        var text = Substring(text)
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let rest = text[text.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.count > 1 && rest.dropFirst().allSatisfy(\.isASCIIDigit)) else { return nil }
            text = text[text.index(after: text.startIndex)..<close]
        } else if text.contains("."), text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            // `1.2.3.4:5678`: a single colon after a dotted quad starts a port.
            let port = text[text.index(after: colon)...]
            guard !port.isEmpty, port.allSatisfy(\.isASCIIDigit) else { return nil }
            text = text[..<colon]
        }
        if let percent = text.firstIndex(of: "%") { text = text[..<percent] }
        guard !text.isEmpty, text.count <= 45 else { return nil }
        let string = String(text)
        var v4 = in_addr()
        if inet_pton(AF_INET, string, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, string, &v6) == 1 else { return nil }
        let raw = withUnsafeBytes(of: &v6) { Array($0) }
        let mapped = raw.prefix(10).allSatisfy { $0 == 0 } && raw[10] == 0xff && raw[11] == 0xff
        bytes = mapped ? Array(raw.suffix(4)) : raw
    }

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public var isIPv4: Bool { bytes.count == 4 }

    public var description: String {
        var buffer = [CChar](repeating: 0, count: 64)
        var copy = bytes
        let family = isIPv4 ? AF_INET : AF_INET6
        guard inet_ntop(family, &copy, &buffer, socklen_t(buffer.count)) != nil else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// An address and prefix length: `10.0.0.0/8`, `::1` (= `::1/128`). Host bits in the address are ignored.
public struct IPAddressRange: Sendable, Hashable, CustomStringConvertible {
    public let network: IPAddress
    public let prefixLength: Int

    public init?(_ text: String) {
        let parts = text.trimmingASCIIWhitespace().split(separator: "/", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count) else { return nil }
        // Ports make no sense in a range; reject them rather than read them as an address.
        guard let address = IPAddress(String(parts[0])), Self.isBareAddress(parts[0]) else { return nil }
        let maxLength = address.bytes.count * 8
        var length = maxLength
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].count <= 3, parts[1].allSatisfy(\.isASCIIDigit), let value = Int(parts[1]), value <= maxLength else { return nil }
            length = value
        }
        network = IPAddress(bytes: Self.mask(address.bytes, prefixLength: length))
        prefixLength = length
    }

    public func contains(_ address: IPAddress) -> Bool {
        address.bytes.count == network.bytes.count && Self.mask(address.bytes, prefixLength: prefixLength) == network.bytes
    }

    public var description: String { "\(network)/\(prefixLength)" }

    static func mask(_ bytes: [UInt8], prefixLength: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let bits = min(max(prefixLength - index * 8, 0), 8)
            return bits == 8 ? byte : byte & ~(0xff >> bits)
        }
    }

    private static func isBareAddress(_ text: Substring) -> Bool {
        // IPv6 has several colons; IPv4 none. Exactly one colon would be `host:port`.
        text.filter { $0 == ":" }.count != 1 && !text.contains("[") && !text.contains("%")
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
