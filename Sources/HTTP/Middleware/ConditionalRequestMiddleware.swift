/// Answers `If-None-Match` (and, without it, `If-Modified-Since`) with 304 for GET and HEAD responses
/// that carry validators (RFC 9110 §13). Handlers only need to set `ETag` / `Last-Modified`.
public struct ConditionalRequestMiddleware: Middleware {
    public init() {}

    public func respond(to request: Request, chainingTo next: Responder) throws -> Response {
        let response = try next.respond(to: request)
        guard request.method == .GET || request.method == .HEAD, response.status == .ok else { return response }
        if let etag = response.headers.first(name: "ETag"), let condition = request.headers.first(name: "If-None-Match") {
            return Self.matches(etag: etag, condition: condition) ? notModified(response) : response
        }
        if let since = request.headers.first(name: "If-Modified-Since").flatMap(HTTPDate.unixTime(from:)),
           let lastModified = response.headers.first(name: "Last-Modified").flatMap(HTTPDate.unixTime(from:)),
           lastModified <= since {
            return notModified(response)
        }
        return response
    }

    /// Weak comparison, as RFC 9110 §13.1.2 requires for If-None-Match.
    static func matches(etag: String, condition: String) -> Bool {
        let trimmed = condition.trimmingASCIIWhitespace()
        if trimmed == "*" { return true }
        let ours = opaque(etag)
        return trimmed.split(separator: ",").contains { opaque($0.trimmingASCIIWhitespace()) == ours }
    }

    static func opaque(_ tag: String) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : Substring(tag)
    }

    private func notModified(_ response: Response) -> Response {
        var headers = HTTPHeaders()
        for (name, value) in response.headers where Self.keptOn304.contains(where: { HTTPHeaders.equalsIgnoringCase($0, name) }) {
            headers.add(name: name, value: value)
        }
        return Response(status: .notModified, headers: headers)
    }

    static let keptOn304 = ["ETag", "Cache-Control", "Last-Modified", "Vary", "Expires", "Content-Location"]
}
