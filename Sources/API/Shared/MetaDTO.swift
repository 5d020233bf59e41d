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
