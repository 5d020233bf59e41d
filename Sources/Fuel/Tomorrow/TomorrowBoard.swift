import Foundation

/// One station's today-versus-tomorrow comparison for one fuel.
public struct TomorrowComparison: Hashable, Sendable {
    public var station: StationID
    public var fuel: FuelType
    /// Nil when the station has no price today for this fuel (verdict `noPriceToday`).
    public var today: PriceTenths?
    public var tomorrow: PriceTenths
    public var verdict: TomorrowVerdict
}

/// What `/v1/tomorrow` needs: whether tomorrow's WA prices are out, when they are due, and the verdicts.
public struct TomorrowBoard: Hashable, Sendable {
    /// The trading day tomorrow's prices are for (`yyyy-MM-dd`).
    public var tradingDay: String
    /// True once any WA tomorrow price for `tradingDay` is held (whatever `fuel` was asked for).
    public var isPublished: Bool
    /// 14:30 Perth on the day before `tradingDay`.
    public var expectedAt: Date
    /// When published: the instant this server first held them (never before `expectedAt`).
    public var publishedAt: Date?
    /// Grouped by station in snapshot order (priced fuels first); empty until published.
    public var comparisons: [TomorrowComparison]

    /// The board at `now` (WA's clock) over `snapshot`'s WA stations, for one fuel or all.
    public init(snapshot: Snapshot, fuel: FuelType? = nil, now: Date) {
        self.init(
            entries: snapshot.entries.lazy.filter { $0.station.state == .WA }, fuel: fuel, now: now,
            publication: snapshot.status(of: .wa)?.tomorrow)
    }

    init(entries: some Sequence<StationEntry>, fuel: FuelType?, now: Date, publication: TomorrowPublication?) {
        let day = WATradingDay.nextTradingDay(after: now)
        let text = day.description
        var comparisons: [TomorrowComparison] = []
        var hasTomorrowData = false
        for entry in entries {
            for price in entry.prices {
                guard let verdict = price.verdict(forTradingDay: text), let tomorrow = price.tomorrow else { continue }
                hasTomorrowData = true
                guard fuel == nil || price.fuel == fuel else { continue }
                comparisons.append(
                    TomorrowComparison(
                        station: entry.id, fuel: price.fuel, today: price.price, tomorrow: tomorrow.price,
                        verdict: verdict))
            }
            for only in entry.tomorrowOnly where only.tomorrow.day == text {
                hasTomorrowData = true
                guard fuel == nil || only.fuel == fuel else { continue }
                comparisons.append(
                    TomorrowComparison(
                        station: entry.id, fuel: only.fuel, today: nil, tomorrow: only.tomorrow.price,
                        verdict: .noPriceToday))
            }
        }
        self.tradingDay = text
        self.expectedAt = WATradingDay.publicationInstant(forTradingDay: day)
        self.isPublished = WATradingDay.isPublished(now: now, hasTomorrowData: hasTomorrowData)
        self.publishedAt = isPublished ? (publication?.day == day ? publication!.publishedAt : expectedAt) : nil
        // Before 14:30 a "tomorrow" value is not FuelWatch's published price (the JSON API may echo today's).
        self.comparisons = isPublished ? comparisons : []
    }
}

extension FuelIndex {
    /// `TomorrowBoard(snapshot:fuel:now:)`, visiting only the WA stations.
    public func tomorrowBoard(fuel: FuelType? = nil, now: Date) -> TomorrowBoard {
        TomorrowBoard(
            entries: slots(in: .WA).lazy.map { self.snapshot.entries[$0] }, fuel: fuel, now: now,
            publication: snapshot.status(of: .wa)?.tomorrow)
    }
}
