/// Everything the parser learns about a request before its body: the request line and header section.
public struct HTTPRequestHead: Sendable {
    public var method: HTTPMethod
    /// The request target exactly as sent (origin-form, absolute-form or `*`).
    public var target: String
    /// The percent-decoded path split into segments, dot-segments removed. `/` is `[]`.
    /// A segment may contain a decoded `/` (from `%2F`); it never contains NUL.
    public var pathSegments: [String]
    /// True when the target path ended in `/` (ignored by routing, kept for redirects and logs).
    public var hasTrailingSlash: Bool
    /// The raw query string after `?`, without the `?`, not decoded; nil when absent.
    public var rawQuery: String?
    public var version: HTTPVersion
    public var headers: HTTPHeaders

    public init(
        method: HTTPMethod, target: String, pathSegments: [String], hasTrailingSlash: Bool = false,
        rawQuery: String?, version: HTTPVersion, headers: HTTPHeaders
    ) {
        self.method = method
        self.target = target
        self.pathSegments = pathSegments
        self.hasTrailingSlash = hasTrailingSlash
        self.rawQuery = rawQuery
        self.version = version
        self.headers = headers
    }

    /// The normalised path, segments joined by `/` (a segment's own `/` stays encoded as `%2F`).
    public var path: String {
        "/" + pathSegments.map { $0.replacingSlashes() }.joined(separator: "/")
    }

    /// RFC 9112 §9.3: an explicit `Connection` token wins; otherwise 1.1 keeps the connection and 1.0 closes it.
    public var wantsKeepAlive: Bool {
        if headers.containsToken("close", name: "Connection") { return false }
        if headers.containsToken("keep-alive", name: "Connection") { return true }
        return version.major == 1 && version.minor >= 1
    }
}

extension String {
    fileprivate func replacingSlashes() -> String {
        guard utf8.contains(UInt8(ascii: "/")) else { return self }
        return split(separator: "/", omittingEmptySubsequences: false).joined(separator: "%2F")
    }
}
