import Foundation
import Fuel
import HTTP

/// `GET /v1/tomorrow`: WA publishes tomorrow's prices at 14:30; each station gets a "should you fill up" verdict.
struct TomorrowController: RouteCollection {
    let context: PettyContext

    /// States whose regulator publishes next-day prices.
    static let publishingStates: Set<AustralianState> = [.WA]

    func boot(routes: RoutesBuilder) throws {
        // A point or favourites are per client: computed each time. The rest is judged by WA's clock (06:00, 14:30).
        routes.get("v1", "tomorrow", use: context.memoizing(.second, perClient: [.near, .ids], render: render))
    }

    private func render(_ request: Request, view: PettyView) throws -> Response {
        let params = try TomorrowParameters(request)
        let (state, fuel, near, radius, ids, limit, offset) = (params.state, params.fuel, params.near, params.radiusKm, params.ids, params.limit, params.offset)
        let meta = view.rendered.meta(for: state)
        let lastModified = view.rendered.lastModified
        guard Self.publishingStates.contains(state) else {
            let body = TomorrowBody.unavailable(
                state: state, fuel: fuel, reason: "\(state.rawValue) does not publish next-day prices; only WA (FuelWatch) does", meta: meta)
            return JSONResponse.make(body: body, etag: Self.etag(body), lastModified: lastModified, maxAge: 3600)
        }
        let now = context.now(for: state, in: view)
        let board = view.index.tomorrowBoard(fuel: fuel, now: now)
        let wanted = ids.map(Set.init)
        var rows: [(row: TomorrowBody.Row, order: Double)] = []
        for comparison in board.comparisons {
            guard let entry = view.snapshot[comparison.station] else { continue }
            if let wanted, !wanted.contains(comparison.station) { continue }
            var distance: Double?
            if let near {
                let km = near.distanceKm(to: entry.station.location)
                guard km <= radius else { continue }
                distance = km
            }
            rows.append((TomorrowBody.Row(comparison: comparison, entry: entry, distanceKm: distance), distance ?? Double(comparison.tomorrow.tenths)))
        }
        rows.sort { $0.order != $1.order ? $0.order < $1.order : $0.row.entry.id.rawValue < $1.row.entry.id.rawValue }
        let ordered = rows.map(\.row)
        let body = TomorrowBody.write(
            state: state, fuel: fuel, board: board, rows: ordered, page: ordered.dropFirst(offset).prefix(limit),
            limit: limit, offset: offset, meta: meta)
        return JSONResponse.make(body: body, etag: Self.etag(body), lastModified: lastModified)
    }

    private static func etag(_ body: [UInt8]) -> String {
        var hash = FNV1a()
        hash.combine(body)
        return hash.weakETag
    }
}
