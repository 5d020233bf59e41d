import Foundation
import Fuel
import HTTP
import Synchronization

/// Everything about a snapshot that responses reuse, computed once when the snapshot is published:
/// each station's JSON, its ETag, whole detail bodies, and the freshness labels (`as_of`, `source`).
///
/// A class: every request reads it, and reading a struct of this many arrays retains each field (a measured
/// share of the `station` benchmark), where reading an object retains one. Immutable once built, so sharing it across event loops is safe.
package final class RenderedSnapshot: Sendable {
    /// By snapshot slot: the station object without its closing brace, a slice of the slot's detail body.
    package let fragments: [ArraySlice<UInt8>]
    /// By slot: a content hash of the fragment, folded into list ETags.
    let hashes: [UInt64]
    /// By slot: the compact map-pin object without its price or closing brace (`CompactStationEncoding`).
    let compactHeads: [[UInt8]]
    /// By slot: the whole `GET /v1/stations/:id` body and its ETag, with `open_now` as judged when rendered
    /// (`openNowAtRender`); the controller re-renders a detail whose `open_now` has changed since.
    package let detailBodies: [[UInt8]]
    let detailETags: [String]
    /// By slot: the whole detail response, headers included, so the hot path only hands it over.
    let detailResponses: [Response]
    /// By slot: `StationEncoding.openNowByte` of `open_now` in `detailBodies`.
    let openNowAtRender: [UInt8]
    /// `Last-Modified` for every response derived from this snapshot.
    package let lastModified: String
    /// Per state (by `AustralianState` ordinal) and overall: newest `as_of` and the data source label.
    let metaByState: [DataMeta]
    let overallMeta: DataMeta
    /// Per state: the meta of a single station's body, without `sync_token` (its ETag moves only with its state's data).
    let detailMetaByState: [DataMeta]
    /// `/v1/fuels` and `/v1/brands`, rendered on their first request (`reference(of:)`): most snapshots are replaced
    /// before anyone asks, and the brand lists are a pass over every station per state.
    private let referenceCell = BuiltOnce<ReferenceResponses>()

    init(
        fragments: [ArraySlice<UInt8>], hashes: [UInt64], compactHeads: [[UInt8]], detailBodies: [[UInt8]], detailETags: [String],
        detailResponses: [Response], openNowAtRender: [UInt8], lastModified: String, metaByState: [DataMeta],
        overallMeta: DataMeta, detailMetaByState: [DataMeta]
    ) {
        self.fragments = fragments
        self.hashes = hashes
        self.compactHeads = compactHeads
        self.detailBodies = detailBodies
        self.detailETags = detailETags
        self.detailResponses = detailResponses
        self.openNowAtRender = openNowAtRender
        self.lastModified = lastModified
        self.metaByState = metaByState
        self.overallMeta = overallMeta
        self.detailMetaByState = detailMetaByState
    }

    /// `/v1/fuels` and `/v1/brands` of `snapshot`, the one this was rendered from.
    func reference(of snapshot: Snapshot) -> ReferenceResponses {
        referenceCell.value {
            ReferenceResponses.render(snapshot, meta: meta(for:), lastModified: lastModified)
        }
    }

    package static func render(_ basis: SnapshotBasis, memo: FragmentCarryOver? = nil, wall: Date = Date()) -> RenderedSnapshot {
        let index = basis.index
        let snapshot = basis.dataset.snapshot
        let sourceByProvider = Dictionary(uniqueKeysWithValues: snapshot.statuses.map { ($0.provider, $0.source) })
        // A status-only change (a failed poll, a next-poll time) keeps the very same entries: reuse all their JSON.
        // Otherwise reuse it station by station where the entry and its source are unchanged (a re-polled feed
        // changes few prices).
        // A price's flags (stale, implausible) depend on the whole snapshot, so they are part of what must match.
        let marks = Self.marks(index)
        // `vs_average` depends on the state's averages: JSON is reused only against equal ones.
        let averageHashes = AustralianState.allCases.map { index.averagesHash(of: $0) }
        let reused = memo?.unchanged(for: snapshot.entries, sources: sourceByProvider, marks: marks, averages: averageHashes)
        let previous = reused ?? memo?.previous()
        let syncToken = basis.changeFeed.end.token
        // A station's own body leaves the token out, so its ETag changes only with its state's data.
        let providers = DataMeta.providersByState(in: snapshot)
        let detailMetaByState = AustralianState.allCases.map { state in DataMeta(providers: providers, snapshot: snapshot, states: [state]) }
        let metaByState = AustralianState.allCases.map { state in
            DataMeta(providers: providers, snapshot: snapshot, states: [state], syncToken: syncToken)
        }
        let overall = DataMeta(providers: providers, snapshot: snapshot, states: Set(AustralianState.allCases), syncToken: syncToken)
        let judge = OpenNowJudge(clocks: basis.clocks, wall: wall)
        // Compared byte for byte, once per state: a body is reused only under the very meta it was written with.
        let metaUnchanged = detailMetaByState.indices.map { previous?.detailMetaFields[$0] == detailMetaByState[$0].fields }
        var openNow: [UInt8] = []

        var fragments: [ArraySlice<UInt8>] = []
        var hashes: [UInt64] = []
        var bodies: [[UInt8]] = []
        var etags: [String] = []
        fragments.reserveCapacity(snapshot.entries.count)
        hashes.reserveCapacity(snapshot.entries.count)
        bodies.reserveCapacity(snapshot.entries.count)
        etags.reserveCapacity(snapshot.entries.count)
        for (slot, entry) in snapshot.entries.enumerated() {
            let state = AustralianState.allCases.firstIndex(of: entry.station.state)!
            let fragment: ArraySlice<UInt8>
            var hash = FNV1a()
            let old = reused != nil ? slot : previous?.reusableSlot(
                for: entry, source: sourceByProvider[entry.station.provider], marks: marks[slot], averages: averageHashes[state])
            if let previous, let old {
                fragment = previous.fragments[old]
                hash = previous.hashes[old]
            } else {
                let fresh = StationEncoding.fragment(
                    entry, source: sourceByProvider[entry.station.provider] ?? .live,
                    standing: { index.standing($0, slot: slot) }, versus: { index.versusAverageComparison($0, slot: slot) })
                hash.combine(fresh)
                fragment = fresh[...]
            }
            let contentHash = hash
            let meta = detailMetaByState[state]
            let open = judge(entry.station)
            let openByte = StationEncoding.openNowByte(open)
            // A status-only change, or a poll that moved a few prices, leaves most bodies as they were: keep them.
            let kept = metaUnchanged[state] ? old.flatMap { previous?.body(of: $0, openNow: openByte) } : nil
            let body = kept ?? StationEncoding.detailBody(fragment: fragment, openNow: open, meta: meta)
            hash.combine(openByte)
            hash.combine(meta.hash)
            openNow.append(openByte)
            fragments.append(StationEncoding.fragment(inDetailBody: body, count: fragment.count))
            hashes.append(contentHash.value)
            bodies.append(body)
            etags.append(hash.etag)
        }
        memo?.remember(FragmentCarryOver.Memo(
            snapshot: snapshot, sources: sourceByProvider, marks: marks, averages: averageHashes, fragments: fragments,
            hashes: hashes.map { FNV1a(value: $0) }, bodies: bodies, openNow: openNow,
            detailMetaFields: detailMetaByState.map(\.fields)))
        let changed = snapshot.changedAt ?? Date()
        let lastModified = HTTPDate.string(fromUnixTime: Int(changed.timeIntervalSince1970))
        let responses = zip(bodies, etags).map { JSONResponse.make(body: $0, etag: $1, lastModified: lastModified, memoized: true) }
        return RenderedSnapshot(
            fragments: fragments, hashes: hashes, compactHeads: snapshot.entries.map { CompactStationEncoding.head($0.station) },
            detailBodies: bodies, detailETags: etags, detailResponses: responses,
            openNowAtRender: openNow, lastModified: lastModified,
            metaByState: metaByState, overallMeta: overall, detailMetaByState: detailMetaByState
        )
    }

    /// Each slot's price flags (`StationEncoding.marks`).
    static func marks(_ index: FuelIndex) -> [UInt32] {
        index.snapshot.entries.indices.map { slot in
            StationEncoding.marks(index.snapshot.entries[slot]) { index.standing($0, slot: slot) }
        }
    }

    func meta(for state: AustralianState?) -> DataMeta {
        guard let state else { return overallMeta }
        return metaByState[AustralianState.allCases.firstIndex(of: state)!]
    }
}
