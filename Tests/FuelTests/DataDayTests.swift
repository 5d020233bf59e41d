import Foundation
import Testing

@testable import Fuel

/// The averages, the trend's last point and the summary's 7-day change describe one day, the day the
/// state's data describes, on both sides of local midnight (Australia/Melbourne for VIC, whose data is a day behind
/// its capture; Sydney for NSW, whose data is of the day it is captured).
@Suite struct DataDayTests {
    static let day = CalendarDay("2026-08-21")!
    static func local(_ state: AustralianState, _ day: CalendarDay, _ hour: Int, _ minute: Int = 0, _ second: Double = 0) -> Date {
        day.instant(hour: hour, minute: minute, in: state.zone).addingTimeInterval(second)
    }

    static let station = StationRecord(
        key: StationKey(provider: .vic, sourceID: "vic-1"), name: "Servo", brand: "BP", address: "1 Main St", suburb: "Melbourne",
        state: .VIC, postcode: "3000", location: Coordinate(latitude: -37.81, longitude: 144.96))

    /// VIC's nightly capture at `capturedAt` (U91 at `tenths`), labelled as the adapter labels it.
    static func vic(capturedAt: Date, tenths: Int) -> ProviderUpdate {
        ProviderUpdate(
            provider: .vic, stations: [station],
            prices: [PriceRecord(station: station.key, fuel: .U91, price: PriceTenths(tenths: tenths), updatedAt: capturedAt.addingTimeInterval(-3_600))],
            asOf: capturedAt.addingTimeInterval(-3_600),
            describedDay: HistoryDay.described(capturedAt: capturedAt, provider: .vic, state: .VIC))
    }

    /// Eight nightly captures ending at `last`, a day apart, each 1.0 c dearer than the one before.
    static func eightNights(endingAt last: Date) -> Dataset {
        (0..<8).reduce(Dataset()) { dataset, night in
            let capturedAt = last.addingTimeInterval(Double(night - 7) * 86_400)
            return dataset.merging(vic(capturedAt: capturedAt, tenths: 1_800 + night * 10), at: capturedAt).0
        }
    }

    @Test(arguments: [
        // VIC's capture at midnight still describes the day before the one that just ended (a day late).
        (Self.local(.VIC, Self.day.advanced(by: 1), 0, 0, -1), "2026-08-20"),
        (Self.local(.VIC, Self.day.advanced(by: 1), 0, 0, 0), "2026-08-20"),
        (Self.local(.VIC, Self.day.advanced(by: 1), 0, 0, 1), "2026-08-21"),
    ])
    func vicAveragesTrendAndWeekChangeDescribeOneDay(capturedAt: Date, expected: String) throws {
        let dataset = Self.eightNights(endingAt: capturedAt)
        let day = try #require(dataset.snapshot.dataDays()[.VIC])
        #expect(day.description == expected)
        let trend = dataset.history.trend(state: .VIC, fuel: .U91, days: 30, through: day)
        #expect(trend.through == expected)
        #expect(trend.points.last?.day == expected)
        #expect(trend.points.last?.average == 187.0)
        let change = try #require(WeekChange(points: dataset.history.points(state: .VIC, fuel: .U91), day: day))
        #expect(change.day == day)
        #expect(abs((change.value ?? 0) - 7.0) < 1e-9)
    }

    @Test func nswDataChangesDayAtSydneyMidnight() {
        func day(at asOf: Date) -> String? {
            let snapshot = Snapshot.empty.merging(Fixture.update(.nsw, count: 1, asOf: asOf), registry: StationRegistry(), at: asOf).snapshot
            return snapshot.dataDays()[.NSW]?.description
        }
        #expect(day(at: Self.local(.NSW, Self.day.advanced(by: 1), 0, 0, -1)) == "2026-08-21")
        #expect(day(at: Self.local(.NSW, Self.day.advanced(by: 1), 0, 0, 0)) == "2026-08-22")
    }

    @Test func aWeekChangeIsNeverPairedFromAnotherDay() {
        let points = (13...20).map { DailyPoint(day: "2026-08-\($0)", average: Double(180 + $0), min: PriceTenths(tenths: 1_800), max: PriceTenths(tenths: 2_000), stationCount: 120) }
        // The averages describe the 21st, the newest point is the 20th: no change, not the 20th's.
        let missingDay = WeekChange(points: points, day: Self.day)
        #expect(missingDay?.day == Self.day)
        #expect(missingDay?.value == nil)
        let missingWeekBefore = WeekChange(points: Array(points.dropFirst()), day: Self.day.advanced(by: -1))
        #expect(missingWeekBefore?.value == nil)
        let both = WeekChange(points: points, day: Self.day.advanced(by: -1))
        #expect(both?.value == 7.0)
        #expect(WeekChange(points: points, day: nil) == nil)
    }

    @Test func theDescribedDaySurvivesAnEncodingRoundTrip() throws {
        let dataset = Self.eightNights(endingAt: Self.local(.VIC, Self.day.advanced(by: 1), 0, 0, 1))
        let data = try JSONEncoder().encode(dataset.snapshot)
        let loaded = try JSONDecoder().decode(Snapshot.self, from: data)
        #expect(loaded.dataDays()[.VIC]?.description == "2026-08-21")
    }
}
