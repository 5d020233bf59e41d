import Foundation

/// The base of every absolute URL a page writes (`og:url`, `og:image`, the app banner's `app-argument`, "Open in
/// Petty"): `PETTY_PUBLIC_URL` / `--public-url`, or `http://<listen address>` by default. Never the request's
/// `Host`: a cached page must not carry whatever host one client sent.
public struct PublicURL: Equatable, Sendable, CustomStringConvertible {
    /// `https://petty.example` or `https://example.com/petty`, without a trailing slash.
    public let description: String
    /// `description`, HTML-escaped, ready to write into an attribute.
    let html: [UInt8]

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// Validates an operator's value: an absolute `http` or `https` URL with a host, no user info, query or fragment.
    public init(validating raw: String, name: String = "PETTY_PUBLIC_URL") throws {
        let text = raw.trimmingCharacters(in: .whitespaces)
        func invalid(_ why: String) -> Invalid {
            Invalid(description: "\(name) must be an absolute http(s) URL such as https://petty.example (\(why)), got '\(raw)'")
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw invalid("not a URL")
        }
        guard scheme == "http" || scheme == "https" else { throw invalid("scheme must be http or https") }
        guard let host = components.host, !host.isEmpty else { throw invalid("no host") }
        guard components.user == nil, components.password == nil else { throw invalid("no user info allowed") }
        guard components.query == nil else { throw invalid("no query allowed") }
        guard components.fragment == nil else { throw invalid("no fragment allowed") }
        var trimmed = text
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        self.init(trusted: trimmed)
    }

    /// A station's share link, `<base>/stations/<id>` (what a push's and the inbox's `url` carry).
    public func stationLink(_ id: Int) -> String { "\(description)/stations/\(id)" }

    /// The default: `http://host:port` of the listen address (an IPv6 address in brackets).
    public init(listenHost host: String, port: Int) {
        let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        self.init(trusted: "http://\(bracketed):\(port)")
    }

    private init(trusted: String) {
        description = trusted
        var writer = HTMLWriter(capacity: trusted.utf8.count + 16)
        writer.text(trusted)
        html = writer.bytes
    }
}
