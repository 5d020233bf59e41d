import Foundation
import Fuel
import HTTP

/// `GET /v1/prices/cheapest`.
struct PricesController: RouteCollection {
    let context: PettyContext

    static let defaultCheapestLimit = 10

    func boot(routes: RoutesBuilder) throws {
        // A point is per client: computed each time. The rest judges open now by the clock.
        routes.get("v1", "prices", "cheapest", use: context.memoizing(.second, perClient: .near, render: render))
    }

    private func render(_ request: Request, view: PettyView) throws -> Response {
        let params = try QueryParameters(request, allowing: .cheapest)
        let fuel = try params.requiredFuel()
        let near = try params.coordinate()
        let state = try params.state()
        guard near != nil || state != nil else { throw params.bad("cheapest needs near=lat,lng or state, e.g. state=NSW") }
        let radius = try params.radius(near: near)
        let limit = try params.int("limit", in: 1...100, default: Self.defaultCheapestLimit)
        let offset = try params.int("offset", in: 0...1_000_000, default: 0)
        // The cheapest pick is somewhere to drive to: closed and members-only stations only when asked for.
        let opening: AccessFilter.Opening? = try params.bool("open_now") == true ? .openNow : (try params.bool("include_closed") == true ? nil : .notClosed)
        let membersOnly = try params.bool("include_members_only") ?? false
        let fill = try params.fillPlan(near: near, fuels: [fuel])
        let sort = try params.choice("sort", as: CheapestSort.self) ?? .price
        if sort == .fillCost && fill == nil { throw params.bad("sort=fill_cost needs near=lat,lng") }
        let openNow = OpenNowJudge(clocks: view.clocks, wall: context.clock())
        let access = AccessFilter(
            opening: opening, excludesMembersOnly: !membersOnly, clocks: openNow.clocks, wall: openNow.wall,
            keepsUnknownIn: view.index.statesWithoutAccessFacts)
        let page: StationPage
        do {
            page = try view.index.cheapest(fuel: fuel, near: near, radiusKm: radius, state: state, limit: limit, offset: offset, access: access,
                fill: fill, byFillCost: sort == .fillCost)
        } catch { throw params.bad("\(error)") }
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
            json.raw(",\"price\":")
            json.price(price.price)
            json.raw(",\"updated_at\":")
            json.string(ISOTimestamp.string(price.updatedAt))
            if let distance = match.distanceKm, distance.isFinite {
                json.raw(",\"distance_km\":")
                json.decimal(distance, places: 2)
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

    /// `sort=` of `/v1/prices/cheapest`: the pump price (default) or the fill cost with the drive counted.
    enum CheapestSort: String, CaseIterable {
        case price
        case fillCost = "fill_cost"
    }
}
