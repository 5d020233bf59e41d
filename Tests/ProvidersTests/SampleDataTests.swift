import Foundation
import Fuel
import Testing
@testable import Providers

@Suite struct SampleDataTests {
    /// Loaded once for the suite: every test only reads it, and a load parses every bundled sample (seconds in a
    /// debug build). A load that throws fails each test that reads it.
    static let loaded = Result { try SampleData.load() }
    var sample: SampleBundle { get throws { try Self.loaded.get() } }

    @Test func theBundledSampleLoadsWithOneCurrentUpdatePerProvider() throws {
        let bundle = try sample
        #expect(bundle.current.map(\.provider) == [.nsw, .wa, .qld, .sa, .vic])
        let byProvider = Dictionary(uniqueKeysWithValues: bundle.current.map { ($0.provider, $0) })
        #expect(byProvider[.nsw]?.stations.count == 3_289)
        #expect(byProvider[.nsw]?.prices.count == 10_693 - 909)
        #expect(byProvider[.vic]?.stations.count == 1_754)
        #expect(byProvider[.qld]?.stations.count == 1_727)
        #expect(byProvider[.wa]?.stations.count == 80)
        #expect(byProvider[.sa]?.stations.count == 1)
        // QLD sites get suburb names from the bundled regions file.
        #expect(byProvider[.qld]?.stations.allSatisfy { !$0.suburb.isEmpty } == true)
    }

    @Test func theSampleCoversAtLeastFourStates() throws {
        let states = Set(try sample.current.flatMap { $0.stations.map(\.state) })
        #expect(states.count >= 4)
        #expect(states.isSuperset(of: [.NSW, .ACT, .WA, .QLD, .SA, .VIC]))
    }

    @Test func waHasTodayAndTomorrowPricesForTheLatestDay() throws {
        let wa = try #require(try sample.current.first { $0.provider == .wa })
        #expect(Set(wa.prices.map(\.fuel)) == [.U91, .DL])
        #expect(wa.prices.allSatisfy { $0.updatedAt == Fixture.instant("2026-04-22T06:00:00+08:00") })
        #expect(!wa.tomorrow.isEmpty)
        #expect(wa.tomorrow.allSatisfy { $0.day == "2026-04-23" })
        #expect(Set(wa.tomorrow.map(\.fuel)) == [.U91, .DL])
    }

    @Test func vicHistorySpansAtLeastThirtyDistinctDaysOldestFirst() throws {
        let bundle = try sample
        let vic = bundle.history.filter { $0.provider == .vic }
        var melbourne = Calendar(identifier: .gregorian)
        melbourne.timeZone = try #require(TimeZone(identifier: "Australia/Melbourne"))
        let days = Set(vic.map { melbourne.dateComponents([.year, .month, .day], from: $0.asOf) })
        #expect(vic.count == 50)
        #expect(days.count >= 30)
        #expect(vic.allSatisfy { $0.stations.count == 120 && !$0.prices.isEmpty })
        let currentVIC = try #require(bundle.current.first { $0.provider == .vic })
        #expect(vic.allSatisfy { $0.asOf < currentVIC.asOf })
    }

    @Test func historyIsOldestFirstAndCarriesNoTomorrowPrices() throws {
        let history = try sample.history
        #expect(history.map(\.asOf) == history.map(\.asOf).sorted())
        #expect(history.allSatisfy { $0.tomorrow.isEmpty })
        #expect(history.filter { $0.provider == .wa }.count == 7)
    }
}
