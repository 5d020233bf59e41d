import Foundation
import Fuel
import HTTP

/// `GET /v1/prices/cheapest` and `GET /v1/prices/changes` (incremental sync).
struct PricesController: RouteCollection {
    let context: PettyContext

    static let defaultCheapestLimit = 10
    static let defaultChangesLimit = 1_000
    static let maxChangesLimit = 5_000

    func boot(routes: RoutesBuilder) throws {
        routes.get("v1", "prices", "cheapest", use: cheapest)
        routes.get("v1", "prices", "changes", use: changes)
    }

    func cheapest(_ request: Request) throws -> Response {
        let params = QueryParameters(request)
        let fuel = try params.requiredFuel()
        let near = try params.coordinate()
        let state = try params.state()
        guard near != nil || state != nil else { throw params.bad("cheapest needs near=lat,lng or state, e.g. state=NSW") }
        let radius = try params.double("radius_km", in: 0.1...StationsController.maxRadiusKm, default: near == nil ? nil : StationsController.defaultRadiusKm)
        if near == nil && radius != nil && params.query.contains("radius_km") { throw params.bad("radius_km needs near=lat,lng") }
        let limit = try params.int("limit", in: 1...100, default: Self.defaultCheapestLimit)
        let view = context.store.current
        let page: StationPage
        do {
            page = try view.index.cheapest(fuel: fuel, near: near, radiusKm: radius, state: state, limit: limit)
        } catch { throw params.bad("\(error)") }
        let rendered = view.extra
        let meta = rendered.meta(for: state)
        var json = JSONWriter(capacity: 128 + page.matches.count * 700)
        var hash = FNV1a()
        hash.combine(request.head.rawQuery ?? "")
        hash.combine(UInt64(page.total))
        hash.combine(meta.hash)
        json.raw("{\"data\":[")
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
            json.raw(",\"station\":")
            json.raw(rendered.fragments[slot])
            json.raw("}}")
            hash.combine(rendered.hashes[slot])
        }
        json.raw("],\"meta\":{\"total\":")
        json.int(page.total)
        json.raw(",\"limit\":")
        json.int(limit)
        json.raw(",")
        json.raw(meta.fields)
        json.raw("}}")
        return JSONResponse.make(body: json.bytes, etag: "W/" + hash.etag, lastModified: rendered.lastModified)
    }

    /// Bounded by `limit` whatever the data: a page may end between prices that share an instant, because the
    /// cursor carries a tie-break (`ChangeCursor`).
    func changes(_ request: Request) throws -> Response {
        let params = QueryParameters(request)
        let state = try params.state()
        let fuel = try params.fuel()
        let limit = try params.int("limit", in: 1...Self.maxChangesLimit, default: Self.defaultChangesLimit)
        // A cursor carries its own position: given one, `since` is ignored (clients may keep it in their URL).
        let cursor = try params.string("cursor").map { token in
            guard let cursor = ChangeCursor(token: token) else {
                throw params.bad("cursor is not one this server issued; start again with since=")
            }
            return cursor
        }
        // Neither: from the beginning (a first sync pages through every current price).
        let asked = try params.date("since")
        let since = cursor == nil ? (asked ?? Date(timeIntervalSince1970: 0)) : nil
        let view = context.store.current
        let timeline = cursor.map { view.index.changes(after: $0) } ?? view.index.changes(since: since!)
        var items: [PriceChangeDTO] = []
        var hasMore = false
        var last: ChangeCursor?
        for change in timeline {
            guard let entry = view.snapshot[change.station] else { continue }
            if let state, entry.station.state != state { continue }
            if let fuel, change.fuel != fuel { continue }
            if items.count == limit { hasMore = true; break }
            items.append(PriceChangeDTO(
                stationId: change.station.rawValue, state: entry.station.state.rawValue, fuel: change.fuel.rawValue,
                price: CentsValue(change.price), updatedAt: ISOTimestamp.string(change.updatedAt),
                changedAt: ISOTimestamp.string(change.changedAt)))
            last = ChangeCursor(after: change)
        }
        // An empty page hands back where it stood, so the client keeps its place.
        let next = (last ?? cursor ?? since.map(ChangeCursor.after(instant:)))?.token
        let page = MetaDTO.CursorPage(since: since.map(ISOTimestamp.string), hasMore: hasMore, nextCursor: next)
        let body = Envelope(data: items, meta: MetaDTO(view.extra.meta(for: state), total: items.count, limit: limit, cursor: page))
        return try JSONResponse.content(body, lastModified: view.extra.lastModified, maxAge: 30)
    }
}
