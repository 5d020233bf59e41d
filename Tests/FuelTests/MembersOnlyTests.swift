import Foundation
import Testing
@testable import Fuel

/// One members-only rule: the provider's flag where it publishes one, else Costco or a name saying "Members Only".
@Suite struct MembersOnlyTests {
    func record(name: String, brand: String, flag: Bool? = nil) -> StationRecord {
        StationRecord(
            key: StationKey(provider: .nsw, sourceID: name), name: name, brand: brand, address: "1 Main St", suburb: "Town",
            state: .NSW, postcode: "2000", location: Coordinate(latitude: -33.9, longitude: 151.2),
            access: flag.map { StationAccess(membershipRequired: $0) })
    }

    @Test func costcoAndMembersOnlyNamesAreMembersOnlyWhereTheProviderIsSilent() {
        #expect(MembersOnly.required(record(name: "Costco Canberra Airport (Members Only)", brand: "Costco")) == true)
        #expect(MembersOnly.required(record(name: "Epping Fuel", brand: "COSTCO")) == true)
        #expect(MembersOnly.required(record(name: "Club fuel (members only)", brand: "Independent")) == true)
        #expect(MembersOnly.required(record(name: "Shell Coles Express Members", brand: "Shell")) == nil)
        #expect(MembersOnly.required(record(name: "Ampol Bondi", brand: "Ampol")) == nil)
    }

    @Test func aPublishedFlagDecides() {
        #expect(MembersOnly.required(record(name: "Costco Perth Airport", brand: "Costco", flag: false)) == false)
        #expect(MembersOnly.required(record(name: "Depot", brand: "Puma", flag: true)) == true)
    }

    @Test func theAccessFilterLeavesOutDerivedMembersOnlyStations() {
        let filter = AccessFilter(opening: nil, excludesMembersOnly: true, clocks: .wall, wall: Date())
        #expect(!filter.admits(Station(id: StationID(1), record: record(name: "Costco Casula (Members only)", brand: "Costco"))))
        #expect(filter.admits(Station(id: StationID(2), record: record(name: "Ampol Bondi", brand: "Ampol"))))
    }
}
