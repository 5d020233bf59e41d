import Fuel
import HTTP

/// Successful JSON responses with validators and caching headers.
enum JSONResponse {
    /// `memoized`: the response is rendered once and served many times, so its gzip is kept once made.
    static func make(body: [UInt8], etag: String, lastModified: String, maxAge: Int = 60, memoized: Bool = false) -> Response {
        // Built as the fields array itself: every JSON response starts here.
        let headers = HTTPHeaders(fields: [
            (name: "Content-Type", value: "application/json; charset=utf-8"),
            (name: "ETag", value: etag),
            (name: "Last-Modified", value: lastModified),
            (name: "Cache-Control", value: cacheControl(maxAge)),
            (name: "Vary", value: "Accept-Encoding"),
            (name: "X-Content-Type-Options", value: "nosniff"),
        ])
        guard memoized else { return Response(status: .ok, headers: headers, body: body) }
        return Response(status: .ok, headers: headers, compressible: CompressibleBody(body, etag: etag))
    }

    /// The common values are constants, so the hot path does not build a string per response.
    static func cacheControl(_ maxAge: Int) -> String {
        switch maxAge {
        case 30: "public, max-age=30"
        case 60: "public, max-age=60"
        case 300: "public, max-age=300"
        case 3600: "public, max-age=3600"
        default: "public, max-age=\(maxAge)"
        }
    }

    /// A weak validator built from the content hashes that went into a body.
    static func etag(_ parts: (inout FNV1a) -> Void) -> String {
        var hash = FNV1a()
        parts(&hash)
        return hash.weakETag
    }
}

extension JSONResponse {
    /// For endpoints that are not on the hot path: Codable DTO, ETag hashed from the body.
    static func content<T: Encodable>(_ value: T, lastModified: String, maxAge: Int = 60, memoized: Bool = false) throws -> Response {
        let body = try JSONCoding.encode(value)
        var hash = FNV1a()
        hash.combine(body)
        return make(body: body, etag: hash.weakETag, lastModified: lastModified, maxAge: maxAge, memoized: memoized)
    }
}
