import Foundation
import Testing

@testable import Fuel

/// Synthetic cycles with known answers, and every branch of the advice.
@Suite struct CycleAdviceTests {
    static let start = CalendarDay("2026-03-01")!

    /// `cycles` saw-teeth of `length` days: a 2-day jump from 170 to 200, then an even fall back to 170.
    static func sawtooth(cycles: Int, length: Int = 14, droppingLast: Int = 0) -> [DailyPoint] {
        var averages: [Double] = []
        for _ in 0..<cycles {
            averages += [170, 185]
            let fall = length - 2
            averages += (0..<fall).map { 200 - 30 * Double($0) / Double(fall) }
        }
        return points(Array(averages.dropLast(droppingLast)))
    }

    static func points(_ averages: [Double], from first: CalendarDay = start) -> [DailyPoint] {
        averages.enumerated().map { offset, average in
            let tenths = PriceTenths(cents: average)
            return DailyPoint(day: first.advanced(by: offset).description, average: average, min: tenths, max: tenths, stationCount: 50)
        }
    }

    static func advice(_ points: [DailyPoint], today: CalendarDay? = nil, tomorrow: TomorrowOutlook? = nil) -> CycleAdvice {
        CycleAdvice(
            city: .sydney, fuel: .U91, points: points, today: today ?? CalendarDay(points.last?.day ?? "2026-03-01")!,
            tomorrow: tomorrow)
    }

    @Test func aSawtoothReadsItsLengthPositionAndExtremes() throws {
        // Three 14-day cycles, ending four days after the third peak (200 on day 30; last day 34, at 190).
        let points = Self.sawtooth(cycles: 3).prefix(35).map { $0 }
        let reading = try #require(CycleReading(points: points))
        #expect(reading.typicalLengthDays == 14)
        #expect(reading.historyDays == 35)
        #expect(reading.daysSinceHigh == 4)
        #expect(reading.daysSinceLow == 6)  // the third trough, day 28
        #expect(reading.cycle.low == 170)
        #expect(reading.cycle.high == 200)
        #expect(reading.cycle.direction == .falling)
        #expect(abs(reading.cycle.position - 2.0 / 3) < 0.001)
    }

    @Test func oneTroughGivesNoTypicalLength() throws {
        let reading = try #require(CycleReading(points: Self.sawtooth(cycles: 1)))
        #expect(reading.typicalLengthDays == nil)
    }

    @Test func theWindowIsTheLast42Days() throws {
        let reading = try #require(CycleReading(points: Self.sawtooth(cycles: 5)))
        #expect(reading.historyDays == CycleReading.windowDays)
    }

    @Test func nearTheTroughItSaysFillUpNow() {
        // Last day: the bottom of the fall (170.0 + 2.5 c), 11 days into the cycle.
        let points = Self.sawtooth(cycles: 2, droppingLast: 1)
        let advice = Self.advice(points)
        #expect(advice.verdict == .fillUpNow)
        // Only what the data shows, with its date: the newest average and its change on the days before.
        #expect(advice.reason == "The Sydney U91 average was 175.0 c/L on \(points.last!.day), down 5.0 c/L on the mean of the 3 days before.")
    }

    @Test func onTheWayUpFromTheTroughItSaysFillUpNow() {
        // The jump has begun: 170 → 180, a third of the way to the high.
        let points = Self.sawtooth(cycles: 2) + Self.points([170, 180], from: Self.start.advanced(by: 28))
        let advice = Self.advice(points)
        #expect(advice.reading?.cycle.direction == .rising)
        #expect(advice.verdict == .fillUpNow)
        #expect(advice.reason.contains("c/L on \(points.last!.day), up"))
    }

    /// Below half of the cycle but neither rising nor falling: only a rise from the low says fill up (fails if
    /// "rising" is read as "not falling").
    @Test func aSteadyMarketBelowHalfTheCycleSaysWait() throws {
        // Up from the trough to 182.0 and holding there: 40 % of the way from 170 to 200.
        let points = Self.sawtooth(cycles: 2) + Self.points([170, 182, 182, 182, 182], from: Self.start.advanced(by: 28))
        let advice = Self.advice(points)
        let cycle = try #require(advice.reading?.cycle)
        #expect(cycle.direction == .steady)
        #expect(abs(cycle.position - 0.4) < 0.001)
        #expect(cycle.position > CycleAdvice.Rule.standard.fillAtOrBelow && cycle.position < CycleAdvice.Rule.standard.fillWhileRisingBelow)
        #expect(advice.verdict == .wait)
        #expect(advice.reason.contains("level with the mean of the 3 days before"))
    }

    @Test func justAfterThePeakItSaysWait() {
        let points = Self.sawtooth(cycles: 2) + Self.points([170, 185, 200, 197.5], from: Self.start.advanced(by: 28))
        let advice = Self.advice(points)
        #expect(advice.verdict == .wait)
        // No claim that prices "usually fall from here": the last days rose.
        #expect(advice.reason.contains("197.5 c/L on \(points.last!.day), up 12.5 c/L on the mean of the 3 days before"))
        #expect(!advice.reason.contains("usually"))
    }

    @Test func flatPricesHaveNoCycle() {
        let advice = Self.advice(Self.points((0..<20).map { 180 + Double($0 % 3) }))
        #expect(advice.verdict == .noCycle)
    }

    @Test func tooFewDaysOrOldDataIsNotEnoughHistory() {
        #expect(Self.advice([], today: Self.start).verdict == .notEnoughHistory)
        #expect(Self.advice(Self.points([170, 180, 190, 200, 195, 190])).verdict == .notEnoughHistory)
        let points = Self.sawtooth(cycles: 2)
        let last = CalendarDay(points.last!.day)!
        #expect(Self.advice(points, today: last.advanced(by: CycleAdvice.staleAfterDays)).verdict != .notEnoughHistory)
        let stale = Self.advice(points, today: last.advanced(by: CycleAdvice.staleAfterDays + 1))
        #expect(stale.verdict == .notEnoughHistory)
        #expect(stale.reason.contains("is from \(last), 8 days old"))
    }

    @Test func dataOlderThanTwoDaysOrSampleDataSaysSoWithItsDate() {
        let points = Self.sawtooth(cycles: 2)
        let last = CalendarDay(points.last!.day)!
        #expect(!Self.advice(points, today: last.advanced(by: 2)).reason.contains("days old"))
        let old = Self.advice(points, today: last.advanced(by: 3))
        #expect([.wait, .fillUpNow].contains(old.verdict))
        #expect(old.reason.hasSuffix("The newest average is from \(last), 3 days old."))
        let sample = CycleAdvice(city: .sydney, fuel: .U91, points: points, today: last, source: .sample)
        #expect(sample.reason.contains("This is sample data, recorded for \(last)."))
        #expect(!Self.advice(points).reason.contains("sample"))
    }

    @Test func theMetroAreasAreWhereTheCitiesAre() {
        let centres: [(MetroArea, Double, Double)] = [
            (.sydney, -33.8688, 151.2093), (.melbourne, -37.8136, 144.9631), (.brisbane, -27.4698, 153.0251),
            (.adelaide, -34.9285, 138.6007), (.perth, -31.9523, 115.8613),
        ]
        for (city, lat, lng) in centres {
            #expect(MetroArea.containing(Coordinate(latitude: lat, longitude: lng)) == city)
        }
        // Neighbouring cities that price on their own stay out.
        for (lat, lng) in [(-38.1499, 144.3617), (-28.0167, 153.4000), (-26.6500, 153.0667), (-34.4278, 150.8931), (-32.5269, 115.7217), (-33.4245, 151.3418)] {
            #expect(MetroArea.containing(Coordinate(latitude: lat, longitude: lng)) == nil, "\(lat),\(lng)")
        }
        #expect(PriceRegion.perthMetro == MetroArea.perth.box)
    }
}

/// Perth's advice uses tomorrow's prices once they are published at 14:30, and the cycle before that.
@Suite struct PerthTomorrowAdviceTests {
    static let beforePublication = Fixture.date("2026-03-15T06:29:00Z")  // 14:29 Perth
    static let afterPublication = Fixture.date("2026-03-15T06:31:00Z")  // 14:31 Perth

    static func snapshot(today: Int, tomorrow: Int) -> Snapshot {
        let asOf = Fixture.date("2026-03-15T06:00:00Z")
        let ids = ["1", "2", "3"]
        let update = ProviderUpdate(
            provider: .wa,
            stations: ids.map { Fixture.station(.wa, $0, state: .WA, latitude: -31.95, longitude: 115.86) }
                + [Fixture.station(.wa, "9", state: .WA, latitude: -30.75, longitude: 121.47)],  // Kalgoorlie
            prices: ids.map { Fixture.price(.wa, $0, today, at: asOf) } + [Fixture.price(.wa, "9", 1_000, at: asOf)],
            tomorrow: (ids + ["9"]).map {
                TomorrowPriceRecord(station: Fixture.key(.wa, $0), fuel: .U91, price: PriceTenths(tenths: tomorrow), day: "2026-03-16")
            },
            asOf: asOf)
        return Fixture.merge(update, at: asOf).snapshot
    }

    static func advice(_ snapshot: Snapshot, at now: Date) -> CycleAdvice {
        let board = TomorrowBoard(snapshot: snapshot, now: now)
        let outlook = TomorrowOutlook(board: board, fuel: .U91, snapshot: snapshot)
        return CycleAdvice(
            city: .perth, fuel: .U91, points: CycleAdviceTests.sawtooth(cycles: 2), today: CalendarDay("2026-03-28")!,
            tomorrow: outlook)
    }

    @Test func before1430TheCycleDecides() {
        let advice = Self.advice(Self.snapshot(today: 1_900, tomorrow: 1_750), at: Self.beforePublication)
        #expect(advice.tomorrow == nil)
        #expect([.fillUpNow, .wait].contains(advice.verdict))
    }

    @Test func after1430ACheaperTomorrowSaysSo() throws {
        let advice = Self.advice(Self.snapshot(today: 1_900, tomorrow: 1_750), at: Self.afterPublication)
        #expect(advice.verdict == .tomorrowCheaper)
        #expect(advice.reason.contains("Tomorrow's prices are published"))
        let outlook = try #require(advice.tomorrow)
        // Only the three metro stations: Kalgoorlie's 100.0 stays out of Perth's average.
        #expect(outlook.stationCount == 3)
        #expect(outlook.todayAverage == 190)
        #expect(outlook.tomorrowAverage == 175)
        #expect(outlook.tomorrowCheaper == 3)
    }

    @Test func after1430ADearerTomorrowSaysFillUpToday() {
        #expect(Self.advice(Self.snapshot(today: 1_750, tomorrow: 1_900), at: Self.afterPublication).verdict == .todayCheaper)
    }

    @Test func after1430TheSamePriceLeavesItToTheCycle() {
        let advice = Self.advice(Self.snapshot(today: 1_900, tomorrow: 1_900), at: Self.afterPublication)
        #expect(advice.tomorrow != nil)
        #expect([.fillUpNow, .wait].contains(advice.verdict))
    }
}
