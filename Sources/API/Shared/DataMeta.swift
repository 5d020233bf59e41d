import Fuel

/// The freshness part of every response's `meta`: the newest `as_of`, the overall `source`, and per state which
/// source and as-of its data is, so sample data never passes for current in a mixed deployment:
/// `"as_of": "...", "source": "mixed", "states": [{"state": "NSW", "source": "sample", "as_of": "..."}, ...]`.
/// List metas also carry `"sync_token"`: the change feed's end (`ChangeFeed.end`), so a client that did a full fetch
/// syncs from there with `/v1/prices/changes?cursor=`.
/// Built once per snapshot (per state and overall); responses copy `fields`. A class: every list response takes
/// its snapshot's meta, and a struct of three strings and two arrays would be five reference counts bumped per
/// request on storage every event loop shares, where one object is one.
final class DataMeta: Sendable {
    struct StateFreshness: Sendable, Hashable {
        let state: AustralianState
        let source: String
        let asOf: String?
    }

    let asOf: String?
    let source: String
    /// The states the meta speaks for that have data, in state order.
    let states: [StateFreshness]
    /// The change feed's end when this meta belongs to lists; nil for a single station's.
    let syncToken: String?
    /// `"as_of":...,"source":...,"states":[...]` without the surrounding braces.
    let fields: [UInt8]
    /// A hash of `fields`, folded into ETags.
    let hash: UInt64

    convenience init(snapshot: Snapshot, states wanted: Set<AustralianState>, syncToken: String? = nil) {
        self.init(providers: Self.providersByState(in: snapshot), snapshot: snapshot, states: wanted, syncToken: syncToken)
    }

    /// Which providers serve each state with data: one pass over the stations, which a render shares among the
    /// metas it builds (one per state and an overall one).
    static func providersByState(in snapshot: Snapshot) -> [AustralianState: Set<ProviderID>] {
        var providersByState: [AustralianState: Set<ProviderID>] = [:]
        let entries = snapshot.entries
        for slot in entries.indices {
            providersByState[entries[slot].station.state, default: []].insert(entries[slot].station.provider)
        }
        return providersByState
    }

    /// `providers` is `providersByState(in: snapshot)`.
    init(providers: [AustralianState: Set<ProviderID>], snapshot: Snapshot, states wanted: Set<AustralianState>, syncToken: String? = nil) {
        self.syncToken = syncToken
        let providersByState = providers.filter { wanted.contains($0.key) }
        func freshness(_ providers: Set<ProviderID>) -> (asOf: String?, source: String) {
            let statuses = snapshot.statuses.filter { providers.contains($0.provider) }
            let sources = Set(statuses.map(\.source))
            return (statuses.compactMap(\.asOf).max().map(ISOTimestamp.string), sources.count > 1 ? "mixed" : (sources.first?.rawValue ?? "none"))
        }
        let overall = freshness(providersByState.values.reduce(into: Set<ProviderID>()) { $0.formUnion($1) })
        asOf = overall.asOf
        source = overall.source
        states = providersByState.keys.sorted().map { state in
            let own = freshness(providersByState[state]!)
            return StateFreshness(state: state, source: own.source, asOf: own.asOf)
        }

        var json = JSONWriter(capacity: 96 + states.count * 72)
        json.raw("\"as_of\":")
        if let asOf { json.string(asOf) } else { json.null() }
        json.field("source", source)
        json.raw(",\"states\":[")
        for (index, state) in states.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{\"state\":")
            json.string(state.state.rawValue)
            json.field("source", state.source)
            json.field("as_of", state.asOf)
            json.raw("}")
        }
        json.raw("]")
        if let syncToken {
            json.field("sync_token", syncToken)
        }
        fields = json.bytes
        var hasher = FNV1a()
        hasher.combine(fields)
        hash = hasher.value
    }

    /// Ends a list body: closes `data`, then `"meta":{"total","limit","offset"` (no `offset` for a list paged by
    /// cursor), whatever `extra` writes (each field with its leading comma), these fields, and the closing braces.
    /// The one writer of a paged list's meta.
    func writeListEnd<Output: JSONOutput>(
        total: Int, limit: Int, offset: Int?, into json: inout Output, extra: (inout Output) -> Void = { _ in }
    ) {
        json.raw("],\"meta\":{\"total\":")
        json.int(total)
        json.field("limit", limit)
        if let offset {
            json.field("offset", offset)
        }
        extra(&json)
        json.raw(",")
        json.raw(fields)
        json.raw("}}")
    }

    /// `{` + `fields` + `}`.
    func write(into json: inout JSONWriter) {
        json.raw("{")
        json.raw(fields)
        json.raw("}")
    }
}
