import Fuel
import HTTP

/// A JSON file an app platform fetches from `/.well-known/` to trust our share links: rendered once at start,
/// served as `application/json`, 200, no redirect, an hour in caches.
struct WellKnownFile: Sendable {
    let body: [UInt8]
    let etag: String

    init(_ text: String) {
        body = Array(text.utf8)
        var hash = FNV1a()
        hash.combine(body)
        etag = hash.etag
    }

    func response() -> Response {
        let headers: HTTPHeaders = [
            "Content-Type": "application/json",
            "Cache-Control": "public, max-age=3600",
            "ETag": etag,
            "X-Content-Type-Options": "nosniff",
        ]
        return Response(status: .ok, headers: headers, body: body)
    }
}
