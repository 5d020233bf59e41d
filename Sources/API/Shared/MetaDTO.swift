/// `"meta"` of the DTO-encoded endpoints: paging counts plus the data's freshness (`DataMeta`).
struct MetaDTO: Encodable, Sendable {
    var total: Int?
    var limit: Int?
    var offset: Int?
    var freshness: DataMeta

    init(_ meta: DataMeta, total: Int? = nil, limit: Int? = nil, offset: Int? = nil) {
        freshness = meta
        self.total = total
        self.limit = limit
        self.offset = offset
    }

    private enum CodingKeys: String, CodingKey { case asOf, source, total, limit, offset, states, syncToken }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(freshness.asOf, forKey: .asOf)
        try container.encode(freshness.source, forKey: .source)
        try container.encodeIfPresent(total, forKey: .total)
        try container.encodeIfPresent(limit, forKey: .limit)
        try container.encodeIfPresent(offset, forKey: .offset)
        try container.encode(freshness.states.map(StateFreshnessDTO.init), forKey: .states)
        try container.encodeIfPresent(freshness.syncToken, forKey: .syncToken)
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
