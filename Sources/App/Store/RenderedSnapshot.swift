import Foundation
import Fuel
import HTTP

/// Everything about a snapshot that responses reuse, computed once when the snapshot is published:
/// each station's JSON, its ETag, whole detail bodies, and the freshness labels (`as_of`, `source`).
struct RenderedSnapshot: Sendable {
    /// By snapshot slot: the station object without its closing brace.
    let fragments: [[UInt8]]
    /// By slot: a content hash of the fragment, folded into list ETags.
    let hashes: [UInt64]
    /// By slot: the whole `GET /v1/stations/:id` body and its ETag.
    let detailBodies: [[UInt8]]
    let detailETags: [String]
    /// `Last-Modified` for every response derived from this snapshot.
    let lastModified: String
    /// Per state (by `AustralianState` ordinal) and overall: newest `as_of` and the data source label.
    let metaByState: [DataMeta]
    let overallMeta: DataMeta
    /// The instant time-dependent answers are judged at for sample data (the data's own clock, not the wall's).
    let sampleClock: Date?

    static func render(_ dataset: Dataset, index: FuelIndex) -> RenderedSnapshot {
        let snapshot = dataset.snapshot
        let sourceByProvider = Dictionary(uniqueKeysWithValues: snapshot.statuses.map { ($0.provider, $0.source) })
        let metaByState = AustralianState.allCases.map { state in DataMeta(snapshot: snapshot, states: [state]) }
        let overall = DataMeta(snapshot: snapshot, states: Set(AustralianState.allCases))

        var fragments: [[UInt8]] = []
        var hashes: [UInt64] = []
        var bodies: [[UInt8]] = []
        var etags: [String] = []
        fragments.reserveCapacity(snapshot.entries.count)
        hashes.reserveCapacity(snapshot.entries.count)
        bodies.reserveCapacity(snapshot.entries.count)
        etags.reserveCapacity(snapshot.entries.count)
        for entry in snapshot.entries {
            let source = sourceByProvider[entry.station.provider] ?? .live
            let fragment = StationEncoding.fragment(entry, source: source)
            var hash = FNV1a()
            hash.combine(fragment)
            let meta = metaByState[AustralianState.allCases.firstIndex(of: entry.station.state)!]
            var body = JSONWriter(capacity: fragment.count + 96)
            body.raw("{\"data\":")
            body.raw(fragment)
            body.raw("},\"meta\":")
            meta.write(into: &body)
            body.raw("}")
            hash.combine(meta.asOf ?? "")
            fragments.append(fragment)
            hashes.append(hash.value)
            bodies.append(body.bytes)
            etags.append(hash.etag)
        }
        let changed = snapshot.changedAt ?? Date()
        return RenderedSnapshot(
            fragments: fragments, hashes: hashes, detailBodies: bodies, detailETags: etags,
            lastModified: HTTPDate.string(fromUnixTime: Int(changed.timeIntervalSince1970)),
            metaByState: metaByState, overallMeta: overall,
            sampleClock: sampleClock(snapshot)
        )
    }

    func meta(for state: AustralianState?) -> DataMeta {
        guard let state else { return overallMeta }
        return metaByState[AustralianState.allCases.firstIndex(of: state)!]
    }

    /// Sample data is frozen in time: "today" for it is the day it was captured, and a sample that carries
    /// tomorrow's prices was captured after they were published.
    static func sampleClock(_ snapshot: Snapshot) -> Date? {
        let samples = snapshot.statuses.filter { $0.source == .sample }
        guard !samples.isEmpty else { return nil }
        var clock = samples.compactMap(\.asOf).max() ?? Date()
        if let wa = snapshot.status(of: .wa), wa.source == .sample, let asOf = wa.asOf {
            let hasTomorrow = snapshot.entries.contains { $0.station.state == .WA && $0.prices.contains { $0.tomorrow != nil } }
            if hasTomorrow {
                clock = max(asOf, WATradingDay.expectedAt(now: asOf))
            }
        }
        return clock
    }
}

/// `"meta": {"as_of": ..., "source": "sample" | "live" | "mixed"}` for a set of states.
struct DataMeta: Sendable {
    let asOf: String?
    let source: String

    init(snapshot: Snapshot, states: Set<AustralianState>) {
        let providers = Set(snapshot.entries.lazy.filter { states.contains($0.station.state) }.map(\.station.provider))
        let statuses = snapshot.statuses.filter { providers.contains($0.provider) }
        asOf = statuses.compactMap(\.asOf).max().map(ISOTimestamp.string)
        let sources = Set(statuses.map(\.source))
        source = sources.count > 1 ? "mixed" : (sources.first?.rawValue ?? "none")
    }

    func write(into json: inout JSONWriter) {
        json.raw("{\"as_of\":")
        if let asOf { json.string(asOf) } else { json.null() }
        json.raw(",\"source\":")
        json.string(source)
        json.raw("}")
    }
}
