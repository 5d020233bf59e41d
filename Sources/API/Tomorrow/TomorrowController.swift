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
        var meta = MetaDTO(view.rendered.meta(for: state))
        guard Self.publishingStates.contains(state) else {
            let dto = TomorrowDTO(
                state: state.rawValue, fuel: fuel?.rawValue, available: false,
                reason: "\(state.rawValue) does not publish next-day prices; only WA (FuelWatch) does",
                stations: [])
            return try JSONResponse.content(Envelope(data: dto, meta: meta), lastModified: view.rendered.lastModified, maxAge: 3600)
        }
        let now = context.now(for: state, in: view)
        let board = view.index.tomorrowBoard(fuel: fuel, now: now)
        let wanted = ids.map(Set.init)
        var rows: [(TomorrowDTO.StationVerdict, Double)] = []
        for comparison in board.comparisons {
            guard let entry = view.snapshot[comparison.station] else { continue }
            if let wanted, !wanted.contains(comparison.station) { continue }
            var distance: Double?
            if let near {
                let km = near.distanceKm(to: entry.station.location)
                guard km <= radius else { continue }
                distance = km
            }
            let row = TomorrowDTO.StationVerdict(
                stationId: entry.id.rawValue, name: entry.station.name, brand: entry.station.brand, suburb: entry.station.suburb,
                fuel: comparison.fuel.rawValue, today: comparison.today.map(CentsValue.init), tomorrow: CentsValue(comparison.tomorrow),
                difference: comparison.today.map { Rounded(Double(comparison.tomorrow.tenths - $0.tenths) / 10, places: 1) },
                verdict: comparison.verdict.rawValue, distanceKm: distance.map { Rounded($0) })
            rows.append((row, distance ?? Double(comparison.tomorrow.tenths)))
        }
        rows.sort { $0.1 != $1.1 ? $0.1 < $1.1 : $0.0.stationId < $1.0.stationId }
        let stations = rows.dropFirst(offset).prefix(limit).map(\.0)
        meta.total = board.isPublished ? rows.count : 0
        meta.limit = limit
        meta.offset = offset
        let summary = TomorrowDTO.Summary(
            todayCheaper: rows.filter { $0.0.verdict == TomorrowVerdict.todayCheaper.rawValue }.count,
            tomorrowCheaper: rows.filter { $0.0.verdict == TomorrowVerdict.tomorrowCheaper.rawValue }.count,
            same: rows.filter { $0.0.verdict == TomorrowVerdict.same.rawValue }.count,
            noPriceToday: rows.filter { $0.0.verdict == TomorrowVerdict.noPriceToday.rawValue }.count)
        let dto = TomorrowDTO(
            state: state.rawValue, fuel: fuel?.rawValue, available: board.isPublished,
            reason: board.isPublished ? nil : "Tomorrow's prices are published at 2:30 pm Perth time",
            tradingDay: board.tradingDay,
            publishedAt: board.publishedAt.map(ISOTimestamp.string),
            expectedAt: ISOTimestamp.string(board.expectedAt),
            summary: board.isPublished ? summary : nil, stations: board.isPublished ? Array(stations) : [])
        return try JSONResponse.content(Envelope(data: dto, meta: meta), lastModified: view.rendered.lastModified)
    }
}
