import Fuel
import HTTP

/// Successful JSON responses with validators and caching headers.
enum JSONResponse {
    /// `memoized`: the response is rendered once and served many times, so its gzip is kept once made.
    static func make(body: [UInt8], etag: String, lastModified: String, maxAge: Int = 60, memoized: Bool = false) -> Response {
        let headers: HTTPHeaders = [
            "Content-Type": "application/json; charset=utf-8",
            "ETag": etag,
            "Last-Modified": lastModified,
            "Cache-Control": cacheControl(maxAge),
            "Vary": "Accept-Encoding",
            "X-Content-Type-Options": "nosniff",
        ]
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
        return "W/" + hash.etag
    }
}

extension JSONResponse {
    /// For endpoints that are not on the hot path: Codable DTO, ETag hashed from the body.
    static func content<T: Encodable>(_ value: T, lastModified: String, maxAge: Int = 60, memoized: Bool = false) throws -> Response {
        let body = try JSONCoding.encode(value)
        var hash = FNV1a()
        hash.combine(body)
        return make(body: body, etag: "W/" + hash.etag, lastModified: lastModified, maxAge: maxAge, memoized: memoized)
    }
}

/// `"meta"` of the DTO-encoded endpoints: paging counts plus the data's freshness (`DataMeta`).
struct MetaDTO: Encodable, Sendable {
    var total: Int?
    var limit: Int?
    var offset: Int?
    /// Cursor paging (`/v1/prices/changes`): where the page started and how to continue.
    var cursor: CursorPage?
    var freshness: DataMeta

    struct CursorPage: Sendable {
        var since: String?
        var hasMore: Bool
        var nextCursor: String?
        /// Where a full sync ends (the change feed's end), when the endpoint offers one.
        var syncToken: String? = nil
    }

    init(_ meta: DataMeta, total: Int? = nil, limit: Int? = nil, offset: Int? = nil, cursor: CursorPage? = nil) {
        freshness = meta
        self.total = total
        self.limit = limit
        self.offset = offset
        self.cursor = cursor
    }

    private enum CodingKeys: String, CodingKey { case asOf, source, since, total, limit, offset, hasMore, nextCursor, states, syncToken }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(freshness.asOf, forKey: .asOf)
        try container.encode(freshness.source, forKey: .source)
        try container.encodeIfPresent(total, forKey: .total)
        try container.encodeIfPresent(limit, forKey: .limit)
        try container.encodeIfPresent(offset, forKey: .offset)
        if let cursor {
            try container.encodeIfPresent(cursor.since, forKey: .since)
            try container.encode(cursor.hasMore, forKey: .hasMore)
            try container.encode(cursor.nextCursor, forKey: .nextCursor)
        }
        try container.encode(freshness.states.map(StateFreshnessDTO.init), forKey: .states)
        try container.encodeIfPresent(cursor?.syncToken ?? freshness.syncToken, forKey: .syncToken)
    }
}

/// One element of `meta.states`.
struct StateFreshnessDTO: Encodable, Sendable {
    let state: String
    let source: String
    let asOf: String?

    init(_ freshness: DataMeta.StateFreshness) {
        state = freshness.state.rawValue
        source = freshness.source
        asOf = freshness.asOf
    }

    private enum CodingKeys: String, CodingKey { case state, source, asOf }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(source, forKey: .source)
        try container.encode(asOf, forKey: .asOf)
    }
}

struct Envelope<T: Encodable>: Encodable {
    var data: T
    var meta: MetaDTO
}
