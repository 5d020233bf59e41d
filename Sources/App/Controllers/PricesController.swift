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
        let offset = try params.int("offset", in: 0...1_000_000, default: 0)
        // The cheapest pick is somewhere to drive to: closed and members-only stations only when asked for.
        let opening: AccessFilter.Opening? = try params.bool("open_now") == true ? .openNow : (try params.bool("include_closed") == true ? nil : .notClosed)
        let membersOnly = try params.bool("include_members_only") ?? false
        let view = context.store.current
        let openNow = OpenNowJudge(clocks: view.extra.clocks, wall: context.clock())
        let access = AccessFilter(opening: opening, excludesMembersOnly: !membersOnly, clocks: openNow.clocks, wall: openNow.wall)
        let page: StationPage
        do {
            page = try view.index.cheapest(fuel: fuel, near: near, radiusKm: radius, state: state, limit: limit, offset: offset, access: access)
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
            let open = openNow(match.entry.station)
            StationEncoding.writeOpenNow(open, into: &json)
            json.raw("}}")
            hash.combine(rendered.hashes[slot])
            hash.combine(StationEncoding.openNowByte(open))
        }
        json.raw("],\"meta\":{\"total\":")
        json.int(page.total)
        json.raw(",\"limit\":")
        json.int(limit)
        json.raw(",\"offset\":")
        json.int(offset)
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
        struct Meta: Encodable {
            var since: String?
            var total: Int
            var limit: Int
            var hasMore: Bool
            var nextCursor: String?
            var asOf: String?
            var source: String
            var states: [StateFreshnessDTO]

            enum CodingKeys: String, CodingKey { case since, total, limit, hasMore, nextCursor, asOf, source, states }

            func encode(to encoder: Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encodeIfPresent(since, forKey: .since)
                try container.encode(total, forKey: .total)
                try container.encode(limit, forKey: .limit)
                try container.encode(hasMore, forKey: .hasMore)
                try container.encode(nextCursor, forKey: .nextCursor)
                try container.encode(asOf, forKey: .asOf)
                try container.encode(source, forKey: .source)
                try container.encode(states, forKey: .states)
            }
        }
        struct Body: Encodable {
            var data: [PriceChangeDTO]
            var meta: Meta
        }
        let dataMeta = view.extra.meta(for: state)
        // An empty page hands back where it stood, so the client keeps its place.
        let next = (last ?? cursor ?? since.map(ChangeCursor.after(instant:)))?.token
        let body = Body(data: items, meta: Meta(
            since: since.map(ISOTimestamp.string), total: items.count, limit: limit, hasMore: hasMore,
            nextCursor: next, asOf: dataMeta.asOf, source: dataMeta.source,
            states: dataMeta.states.map(StateFreshnessDTO.init)))
        return try JSONResponse.content(body, lastModified: view.extra.lastModified, maxAge: 30)
    }
}
