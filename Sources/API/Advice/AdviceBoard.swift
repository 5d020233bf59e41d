import Foundation
import Fuel
import HTTP
import Synchronization

/// Cycle advice for every city and fuel, computed once per snapshot (and again only when a city's clock crosses a
/// boundary that changes an answer: a new day, or in Perth 06:00 and the 14:30 publication), with each advice
/// object rendered as JSON so `/v1/advice` and `/v1/summary` only concatenate bytes.
/// A class: every advice and summary request takes the board out of the memo, and a struct of a dozen shared
/// tables would be a dozen reference counts bumped per request, on cache lines both event loops write.
final class AdviceBoard: Sendable {
    let version: UInt64
    let advice: [MetroFuel: CycleAdvice]
    /// The `data` object of `/v1/advice` per city and fuel.
    let fragments: [MetroFuel: [UInt8]]
    /// Whole `/v1/advice` responses, and the one for a point outside every metro area, per fuel.
    let responses: [MetroFuel: Response]
    let outside: [FuelType: Response]
    /// The `data` object for a point outside every metro area, per fuel (the summary embeds the same).
    let outsideFragments: [FuelType: [UInt8]]
    /// The same answer for a state without a cycling capital (ACT, TAS, NT), whose reason speaks of the state: the
    /// summary asked by state was given no point.
    let noCycleStateFragments: [FuelType: [UInt8]]
    /// WA's published tomorrow board (all fuels) by WA's clock, for points outside Perth (`nearby`); nil until published.
    let waTomorrow: TomorrowBoard?
    let waSource: DataSource
    /// The wall clock the board was built at (its answers are judged by each state's clock at that instant).
    let builtAt: Date
    /// Each state's clock (live data by the wall clock, sample data by its capture instant).
    let clocks: DataClocks
    /// The first wall-clock instant at which some city's answer may change: the earliest next boundary
    /// (`nextBoundary`) of the cities judged by the wall clock. A city judged by a frozen clock (sample data) never
    /// reaches its own, so one comparison answers for all five.
    let expiresAt: Date
    /// The summary parts rendered from this board, per state and fuel, made on first use.
    let summaryParts = SummaryPartsTable()

    static let outsideReason = "That point is outside the Sydney, Melbourne, Brisbane, Adelaide and Perth metro areas, the cities whose prices move in a cycle."
    static let noCycleStateReason = "Prices in this state do not move in a cycle to time a fill by: only the Sydney, Melbourne, Brisbane, Adelaide and Perth metro areas do."

    init(view: PettyView, wall: Date) {
        version = view.version
        builtAt = wall
        clocks = view.clocks
        var validUntil: [MetroArea: Date] = [:]
        let waBoard = view.index.tomorrowBoard(now: view.clocks.now(for: .WA, wall: wall))
        waTomorrow = waBoard.isPublished ? waBoard : nil
        waSource = view.clocks.provider(of: .WA).flatMap { view.snapshot.status(of: $0)?.source } ?? .live
        var advice: [MetroFuel: CycleAdvice] = [:]
        var fragments: [MetroFuel: [UInt8]] = [:]
        var responses: [MetroFuel: Response] = [:]
        for city in MetroArea.allCases {
            let state = city.state
            let now = view.clocks.now(for: state, wall: wall)
            let provider = view.clocks.provider(of: state) ?? .wa
            let today = HistoryDay.described(capturedAt: now, provider: provider, state: state)
            validUntil[city] = Self.nextBoundary(after: now, state: state)
            let board = city == .perth ? view.index.tomorrowBoard(now: now) : nil
            let meta = view.rendered.meta(for: state)
            let source = view.snapshot.status(of: provider)?.source ?? .live
            for fuel in FuelType.allCases {
                let key = MetroFuel(city, fuel)
                let outlook = board.flatMap { TomorrowOutlook(board: $0, fuel: fuel, snapshot: view.snapshot) }
                let item = CycleAdvice(
                    city: city, fuel: fuel, points: view.history.points(city: city, fuel: fuel), today: today, tomorrow: outlook,
                    source: source
                ).gated(by: view.history.skill(city: city, fuel: fuel))
                advice[key] = item
                var json = JSONWriter(capacity: 512)
                AdviceBody(item).write(into: &json)
                fragments[key] = json.bytes
                responses[key] = Self.response(fragment: json.bytes, meta: meta, lastModified: view.rendered.lastModified)
            }
        }
        var outside: [FuelType: Response] = [:]
        var outsideFragments: [FuelType: [UInt8]] = [:]
        var noCycleStateFragments: [FuelType: [UInt8]] = [:]
        for fuel in FuelType.allCases {
            var body = JSONWriter(capacity: 320)
            AdviceBody(outside: fuel, reason: Self.outsideReason).write(into: &body)
            outside[fuel] = Self.response(fragment: body.bytes, meta: view.rendered.meta(for: nil), lastModified: view.rendered.lastModified)
            outsideFragments[fuel] = body.bytes
            var state = JSONWriter(capacity: 320)
            AdviceBody(outside: fuel, reason: Self.noCycleStateReason).write(into: &state)
            noCycleStateFragments[fuel] = state.bytes
        }
        expiresAt = validUntil.filter { city, _ in !(view.clocks.provider(of: city.state).map(view.clocks.isFrozen) ?? false) }
            .values.min() ?? .distantFuture
        self.advice = advice
        self.fragments = fragments
        self.responses = responses
        self.outside = outside
        self.outsideFragments = outsideFragments
        self.noCycleStateFragments = noCycleStateFragments
    }

    /// The `/v1/advice` data for a WA point outside Perth once tomorrow's prices are published: tomorrow-based
    /// advice from the stations near it (`NearbyTomorrowAdvice`); nil when none has both prices.
    func nearbyFragment(fuel: FuelType, near: Coordinate?, snapshot: Snapshot) -> [UInt8]? {
        guard let near, let board = waTomorrow,
            let advice = NearbyTomorrowAdvice(fuel: fuel, point: near, board: board, snapshot: snapshot, source: waSource)
        else { return nil }
        var json = JSONWriter(capacity: 512)
        AdviceBody(advice).write(into: &json)
        return json.bytes
    }

    /// Whether this board still answers for every city at `wall`, each judged by its state's clock. What is
    /// rendered from the board (summary parts) lives exactly as long.
    var freshness: SnapshotMemo.Freshness {
        let expiresAt = expiresAt
        return .whilst { wall in wall < expiresAt }
    }

    /// The next instant an answer for `state` can change without new data: local midnight, and in WA the next
    /// 06:00 trading-day start or 14:30 publication.
    static func nextBoundary(after now: Date, state: AustralianState) -> Date {
        let midnight = state.day(containing: now).advanced(by: 1).instant(hour: 0, in: state.zone)
        guard state == .WA else { return midnight }
        let next = WATradingDay.nextTradingDay(after: now)
        let candidates = [midnight, WATradingDay.start(of: next), WATradingDay.publicationInstant(forTradingDay: next)]
        return candidates.filter { $0 > now }.min() ?? midnight
    }

    static func response(fragment: [UInt8], meta: DataMeta, lastModified: String) -> Response {
        var body = JSONWriter(capacity: fragment.count + meta.fields.count + 24)
        body.raw("{\"data\":")
        body.raw(fragment)
        body.raw(",\"meta\":")
        meta.write(into: &body)
        body.raw("}")
        var hash = FNV1a()
        hash.combine(body.bytes)
        return JSONResponse.make(body: body.bytes, etag: hash.weakETag, lastModified: lastModified, maxAge: 300, memoized: true)
    }
}
