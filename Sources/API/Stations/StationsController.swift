import Foundation
import Fuel
import HTTP

/// `GET /v1/stations` (filters, nearby, map, favourites) and `GET /v1/stations/:id`.
struct StationsController: RouteCollection {
    let context: PettyContext

    func boot(routes: RoutesBuilder) throws {
        // Points and favourites are per client: computed each time. The rest judges open now by the clock.
        routes.get("v1", "stations", use: context.memoizing(.second, perClient: [.near, .ids], render: render))
        routes.get("v1", "stations", ":id", use: detail)
    }

    private func render(_ request: Request, view: PettyView) throws -> Response {
        let params = try StationsParameters(request)
        var query = params.query
        let wall = context.clock()
        if params.openNow { query.access = .openNow(in: view, wall: wall) }
        let ids = query.ids
        // Compact pins spread evenly over the area unless the client asked for an order or a page.
        let spreadsPins = params.compact && query.sort == nil && !params.offsetGiven && query.after == nil && ids == nil
        if params.cluster {
            let cell = params.zoom.map(ClusterGrid.cellDegrees(zoom:)) ?? query.bbox.map(ClusterGrid.cellDegrees(viewport:)) ?? ClusterGrid.defaultCellDegrees
            let clusters: StationClusters
            do { clusters = try view.index.clusters(matching: query, cellDegrees: cell) } catch { throw Abort(.badRequest, reason: "\(error)") }
            return StationClusterBody.response(clusters.cells, cellDegrees: clusters.cellDegrees, view: view, state: query.state)
        }
        if params.compact {
            let pins: MapPinPage
            do { pins = try view.index.mapPins(matching: query, spread: spreadsPins) } catch { throw Abort(.badRequest, reason: "\(error)") }
            return CompactStationListBody.response(
                pins: pins, fuels: query.fuels, view: view, state: query.state, rawQuery: request.head.rawQuery,
                missing: ids.map { view.index.unknownIDs($0) }, keyset: query.isIDOrder && !pins.isSampled)
        }
        let page: SlotPage
        do { page = try view.index.slots(matching: query) } catch { throw Abort(.badRequest, reason: "\(error)") }
        let missing = ids.map { view.index.unknownIDs($0) }
        return StationListBody.response(
            page: page, view: view, state: query.state, rawQuery: request.head.rawQuery, missing: missing,
            openNow: OpenNowJudge(clocks: view.clocks, wall: wall), keyset: query.isIDOrder,
            fill: query.fill.map { FillCostEncoding(plan: $0, reference: page.fillReference, entries: view.snapshot.entries) })
    }

    func detail(_ request: Request) throws -> Response {
        _ = try StationParameters(request)
        let raw = request.parameters.get("id") ?? ""
        let view = context.store.current
        guard let id = StationID(raw[...]), let slot = view.snapshot.slot(of: id) else {
            if let id = StationID(raw[...]), let removed = view.dataset.removedStation(id) { return RemovedStationResponse.json(removed) }
            throw Abort(.notFound, reason: "No station with id '\(raw)'")
        }
        return view.rendered.detailResponse(slot: slot, in: view, wall: context.clock())
    }
}

/// `{"data": [stations...], "meta": {total, limit, offset, as_of, source}}` assembled from pre-encoded stations.
enum StationListBody {
    /// `missing`: requested ids this snapshot does not hold (`meta.missing`, written only for `ids=` requests).
    static func response(
        page: SlotPage, view: PettyView, state: AustralianState?, rawQuery: String?, missing: [StationID]? = nil,
        openNow: OpenNowJudge, keyset: Bool = false, fill: FillCostEncoding? = nil, extra: ((Int, inout JSONCursor) -> Void)? = nil
    ) -> Response {
        let rendered = view.rendered
        let meta = rendered.meta(for: state)
        // Room for the whole body (`JSONCursor` writes it in place): what follows each fragment at most, the meta,
        // and its optional fields. The caller's fields are not known: a guess, and a body that outgrows it is
        // written again.
        var capacity = Self.endBytes + meta.fields.count + (fill == nil ? 0 : Self.fillMetaBytes) + (missing.map { 13 + $0.count * 21 } ?? 0)
        let perStation = Self.stationTailBytes + (fill == nil ? 0 : Self.fillBytes) + (extra == nil ? 0 : 96)
        let fragments = rendered.fragments
        let hashes = rendered.hashes
        for hit in page.hits { capacity += fragments[hit.slot].count + perStation }
        let entries = view.snapshot.entries
        let tellsOpening = view.index.tellsOpening
        var etag = ""
        let body = JSONCursor.build(capacity: capacity) { json in
            var hash = FNV1a()
            // Word steps (`FNV1a.mix`): an along query is kilobytes, and every station adds a few numbers.
            var query = rawQuery ?? ""
            query.withUTF8 { hash.mix(UnsafeRawBufferPointer($0)) }
            hash.mix(UInt64(page.total))
            json.raw("{\"data\":[")
            for (index, hit) in page.hits.enumerated() {
                let slot = hit.slot
                if index > 0 { json.raw(",") }
                json.raw(fragments[slot])
                // Most stations publish no hours: their records stay unread. The rest are read in place (the subscript
                // copies the whole record, its strings retained, to judge it).
                let open = tellsOpening[slot] ? entries.withUnsafeBufferPointer { openNow($0.baseAddress! + slot) } : nil
                StationEncoding.writeOpenNow(open, into: &json)
                hash.mix(UInt64(StationEncoding.openNowByte(open)))
                if let distance = hit.distanceKm, distance.isFinite {
                    json.field("distance_km", distance, places: 2)
                }
                // The fill cost is a number, hashed as one; its `saving` follows from the reference, which the meta's
                // hash covers. The caller's fields are hashed as written.
                if let fill {
                    fill.write(hit, into: &json)
                    hash.mix(FillCostEncoding.hashWord(hit.fillCostCents))
                }
                if let extra {
                    let start = json.count
                    extra(index, &json)
                    hash.mix(json.written(from: start))
                }
                json.raw("}")
                hash.mix(hashes[slot])
            }
            meta.writeListEnd(total: page.total, limit: page.limit, offset: page.offset, into: &json) { json in
                if keyset { KeysetPaging.writeNextAfter(page, entries: entries, into: &json) }
                if let fill {
                    let start = json.count
                    fill.writeMeta(into: &json)
                    hash.mix(json.written(from: start))
                }
                guard let missing else { return }
                MissingIDs.write(missing, into: &json)
                for id in missing { hash.mix(UInt64(id.rawValue)) }
            }
            hash.mix(meta.hash)
            etag = hash.weakETag
        }
        return JSONResponse.make(body: body, etag: etag, lastModified: rendered.lastModified)
    }

    /// The most a number takes (`-`, 16 digits, `.`, and more digits than any value below 2^53 keeps).
    private static let numberBytes = 20
    /// `,"open_now":false`, `,"distance_km":` and its number, `}` and the `,` before the next station.
    private static let stationTailBytes = 17 + 15 + numberBytes + 2
    /// `,"fill_cost":` and `,"saving":`, with their numbers.
    private static let fillBytes = 13 + 10 + 2 * numberBytes
    /// `,"fill":{"litres":…,"l_per_100km":…,"nearest_id":…,"nearest_fill_cost":…}`.
    private static let fillMetaBytes = 70 + 4 * numberBytes
    /// `{"data":[`, `],"meta":{"total":…,"limit":…,"offset":…,` with `"next_after":…`, and the closing braces.
    private static let endBytes = 64 + 4 * numberBytes
}
