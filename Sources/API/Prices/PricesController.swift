import Foundation
import Fuel
import HTTP

/// `GET /v1/prices/cheapest`.
struct PricesController: RouteCollection {
    let context: PettyContext

    func boot(routes: RoutesBuilder) throws {
        // A point is per client: computed each time. The rest judges open now by the clock.
        routes.get("v1", "prices", "cheapest", use: context.memoizing(.second, perClient: .near, render: render))
    }

    private func render(_ request: Request, view: PettyView) throws -> Response {
        let params = try CheapestParameters(request)
        let (fuel, near, state, limit, offset, fill) = (params.fuel, params.near, params.state, params.limit, params.offset, params.fill)
        let openNow = OpenNowJudge(clocks: view.clocks, wall: context.clock())
        let access = AccessFilter(
            opening: params.opening, excludesMembersOnly: !params.includesMembersOnly, clocks: openNow.clocks, wall: openNow.wall,
            keepsUnknownIn: view.index.statesWithoutAccessFacts)
        let page: StationPage
        do {
            page = try view.index.cheapest(fuel: fuel, near: near, radiusKm: params.radiusKm, state: state, limit: limit, offset: offset, access: access,
                fill: fill, byFillCost: params.sort == .fillCost)
        } catch { throw Abort(.badRequest, reason: "\(error)") }
        let rendered = view.rendered
        let meta = rendered.meta(for: state)
        var json = JSONWriter(capacity: 128 + page.matches.count * 700)
        var hash = FNV1a()
        hash.combine(request.head.rawQuery ?? "")
        hash.combine(UInt64(page.total))
        hash.combine(meta.hash)
        json.raw("{\"data\":[")
        let fillEncoding = fill.map { FillCostEncoding(plan: $0, reference: page.fillReference, entries: view.snapshot.entries) }
        var written = 0
        for match in page.matches {
            guard let slot = view.snapshot.slot(of: match.entry.id), let price = match.price ?? match.entry.price(of: fuel) else { continue }
            if written > 0 { json.raw(",") }
            written += 1
            json.raw("{\"fuel\":")
            json.string(fuel.rawValue)
            json.field("price", price.price)
            json.field("updated_at", ISOTimestamp.string(price.updatedAt))
            if let distance = match.distanceKm, distance.isFinite {
                json.field("distance_km", distance, places: 2)
            }
            if let fillEncoding {
                var fields = JSONWriter(capacity: 64)
                fillEncoding.write(costCents: match.fillCostCents, into: &fields)
                json.raw(fields.bytes)
                hash.combine(fields.bytes)
            }
            json.raw(",\"station\":")
            json.raw(rendered.fragments[slot])
            let open = openNow(match.entry.station)
            StationEncoding.writeOpenNow(open, into: &json)
            json.raw("}}")
            hash.combine(rendered.hashes[slot])
            hash.combine(StationEncoding.openNowByte(open))
        }
        meta.writeListEnd(total: page.total, limit: limit, offset: offset, into: &json) { json in
            guard let fillEncoding else { return }
            var fields = JSONWriter(capacity: 96)
            fillEncoding.writeMeta(into: &fields)
            json.raw(fields.bytes)
            hash.combine(fields.bytes)
        }
        return JSONResponse.make(body: json.bytes, etag: hash.weakETag, lastModified: rendered.lastModified)
    }
}
