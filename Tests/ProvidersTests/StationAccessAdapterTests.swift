import Foundation
import Fuel
import Testing
@testable import Providers

/// What the recorded payloads say about opening hours and access, carried onto the station records.
@Suite struct StationAccessAdapterTests {
    @Test func fuelWatchSitesCarry247MembershipTruckStopAndClosedNow() throws {
        let fetchedAt = Fixture.instant("2026-04-22T16:15:00+08:00")
        let stations = try FuelWatchSitesAdapter.adapt(try Fixture.data("wa_api_sites_fuelType_ULP.json"), fetchedAt: fetchedAt).update.stations
        let byID = Dictionary(uniqueKeysWithValues: stations.map { ($0.key.sourceID, $0.access) })
        #expect(byID["site-2280"] == StationAccess(open24h: true, membershipRequired: false, truckStop: false, closedNow: false, observedAt: fetchedAt))
        #expect(byID["site-1855"]??.open24h == false)
        #expect(stations.compactMap(\.access).count == 6)
    }

    @Test func aFlagOfTheWrongTypeCostsOnlyTheFlag() throws {
        let payload = #"[{"id":7,"siteName":"X","address":{"line1":"1 A St","location":"PERTH","postCode":6000,"latitude":-31.95,"longitude":115.86},"product":{"shortName":"ULP","priceToday":180.1,"isTruckStop":"yes"},"isClosedNow":"no","operates247":true}]"#
        let update = try FuelWatchSitesAdapter.adapt(Data(payload.utf8), fetchedAt: Fixture.instant("2026-04-22T10:00:00+08:00")).update
        #expect(update.prices.count == 1)
        #expect(update.stations.first?.access == StationAccess(open24h: true))
    }

    @Test func fairFuelOpeningHoursBecomeAWeekMondayFirst() throws {
        let stations = try FairFuelAdapter.adapt(try Fixture.data("vic_fuel_prices.subset.json"), fetchedAt: Fixture.fetchedAt).update.stations
        func access(_ prefix: String) -> StationAccess? { stations.first { $0.key.sourceID.hasPrefix(prefix) }?.access }
        #expect(access("aOS09It5") == nil)  // openingHours: null
        #expect(access("bSWwpFzM")?.open24h == true)
        let partial = try #require(access("IbTDNnbc"))
        #expect(partial.open24h == false)
        #expect(partial.hours?.days.first == .open(from: 300, to: 1_260))  // Monday 05:00-21:00
        #expect(partial.hours?.days.last == .open(from: 360, to: 1_260))  // Sunday 06:00-21:00
        // Open only on Tuesdays, all day.
        #expect(access("9qtPVydE")?.hours?.days == [.closed, .allDay, .closed, .closed, .closed, .closed, .closed])
        #expect(access("9qtPVydE")?.open24h == false)
    }
}
