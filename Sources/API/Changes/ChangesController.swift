import Foundation
import Fuel
import HTTP

/// `GET /v1/prices/changes`: incremental sync from a `sync_token`, `cursor` or `since`.
struct ChangesController: RouteCollection {
    let context: PettyContext

    func boot(routes: RoutesBuilder) throws {
        // Judged by the clock: a cursor or `since` from the future. Favourites are per client: computed each time.
        routes.get("v1", "prices", "changes", use: context.memoizing(.second, perClient: .ids, render: render))
    }

    /// Bounded by `limit` whatever the data: a page may end between changes that share an instant, because the
    /// cursor carries a tie-break (`ChangeCursor`). Items, in feed order (`ChangeFeed`):
    /// `{"type":"price",...}` a current price, `{"type":"price","removed":true,...}` a fuel the station dropped,
    /// `{"type":"station",...,"station":{...}}` a station to replace whole (details and prices), and
    /// `{"type":"station","removed":true,...}` a station gone with its prices.
    /// Written by hand, meta included: a station item splices in its pre-rendered fragment, and a 500-item page of
    /// price items took JSONEncoder 19-29 ms against 1.0-1.5 ms appended by hand (`Benchmarks/helpers/codable_vs_writer.swift`,
    /// -O, load 11-15 on 2 cores).
    private func render(_ request: Request, view: PettyView) throws -> Response {
        let params = try ChangesParameters(request)
        let (state, limit, cursor, since) = (params.state, params.limit, params.cursor, params.since)
        let feed = view.changeFeed
        let start = cursor ?? since.map(ChangeCursor.after(instant:))
        if let cursor, ChangeHorizon.isFromTheFuture(cursor, feed: feed, wall: context.clock()) {
            throw Abort(.badRequest, reason: "cursor is after the end of the change feed (a cursor from the future never advances): "
                + "fetch /v1/stations and sync from its meta.sync_token")
        }
        if let start, !feed.log.accepts(start) {
            throw Abort(HTTPStatus(code: 410), reason: Self.expiredReason(cursor == nil ? "since" : "cursor"))
        }
        let rendered = view.rendered
        var json = JSONWriter(capacity: 256 + min(limit, 64) * 160)
        json.raw("{\"data\":[")
        let page = ChangesPage(feed: feed, start: start, state: state, fuel: params.fuel, stations: params.ids.map(Set.init), limit: limit)
        var count = 0
        for event in page.items {
            if count > 0 { json.raw(",") }
            count += 1
            let slot = view.snapshot.slot(of: event.station)
            let standing = event.fuel.flatMap { fuel in slot.map { view.index.standing(fuel, slot: $0) } } ?? []
            Self.write(event, slot: slot, standing: standing, rendered: rendered, into: &json)
        }
        // An empty page hands back where it stood (or the feed's end, from the beginning), so the client keeps its place.
        // A `since` past the feed's end (a phone's clock a few minutes ahead, a typo) hands back the end: a cursor at
        // that instant would skip every change merged before it.
        let stood = cursor ?? start.map { $0.precedes(feed.end) ? $0 : feed.end }
        let next = (page.last ?? stood ?? feed.end).token
        // The list meta's `sync_token` is this feed's end: the view's render and its feed come from one basis.
        rendered.meta(for: state).writeListEnd(total: count, limit: limit, offset: nil, into: &json) { json in
            if let since {
                json.field("since", ISOTimestamp.string(since))
            }
            json.field("has_more", page.hasMore)
            json.field("next_cursor", next)
        }
        var hash = FNV1a()
        hash.combine(json.bytes)
        return JSONResponse.make(body: json.bytes, etag: hash.weakETag, lastModified: rendered.lastModified, maxAge: 30)
    }

    static func expiredReason(_ parameter: String) -> String {
        "\(parameter) is older than the change log (changes are kept \(Int(ChangeLog.retention / 86_400)) days, and a restart "
            + "may lose them): fetch /v1/stations in full and sync from its meta.sync_token"
    }

    private static func write(_ event: ChangeEvent, slot: Int?, standing: PriceStanding, rendered: RenderedSnapshot, into json: inout JSONWriter) {
        switch event.kind {
        case .price, .priceRemoved: json.raw("{\"type\":\"price\",\"station_id\":")
        case .station, .stationRemoved: json.raw("{\"type\":\"station\",\"station_id\":")
        }
        json.int(event.station.rawValue)
        json.field("state", event.state.rawValue)
        switch event.kind {
        case .price(let change):
            json.field("fuel", change.fuel.rawValue)
            json.field("price", change.price)
            json.field("updated_at", ISOTimestamp.string(change.updatedAt))
            if standing.contains(.stale) { json.raw(",\"stale\":true") }
            if standing.contains(.implausible) { json.raw(",\"implausible\":true") }
        case .priceRemoved(let fuel):
            json.field("fuel", fuel.rawValue)
            json.raw(",\"removed\":true")
        case .stationRemoved:
            json.raw(",\"removed\":true")
        case .station:
            break
        }
        json.field("changed_at", ISOTimestamp.string(event.changedAt))
        if case .station = event.kind, let slot {
            json.raw(",\"station\":")
            json.raw(rendered.fragments[slot])
            json.raw("}")
        }
        json.raw("}")
    }
}
