import Foundation
import Testing

@testable import Fuel

/// One placeholder rule per state and fuel, applied the same way to every fuel of every station. A VIC
/// market with the sample's medians (U91 199.9, E10 195.9, P95 216.9, P98 225.9, DL 249.9, PDL 253.9, LPG 97.7)
/// and the sample's odd stations with their recorded prices.
@Suite struct PlaceholderRuleTests {
    static let medians: [FuelType: Int] = [.U91: 1_999, .E10: 1_959, .P95: 2_169, .P98: 2_259, .DL: 2_499, .PDL: 2_539, .LPG: 977]
    static let at = Fixture.date("2026-08-21T02:00:00Z")

    /// `name`'s prices (tenths by fuel) in a market of 21 ordinary stations per fuel, 15 of them at the median (so a
    /// few odd prices leave the medians where they are) and 3 each 5.0 c below and above.
    static func market(_ odd: [(name: String, prices: [FuelType: Int])]) -> (Snapshot, [String: StationID]) {
        var stations: [StationRecord] = []
        var prices: [PriceRecord] = []
        for index in 0..<21 {
            let id = "m\(index)"
            stations.append(Fixture.station(.vic, id, state: .VIC, latitude: -37.8 - Double(index) * 0.01, longitude: 145))
            let offset = index < 3 ? -50 : index > 17 ? 50 : 0
            for (fuel, median) in medians { prices.append(Fixture.price(.vic, id, median + offset, fuel: fuel, at: at)) }
        }
        for (index, station) in odd.enumerated() {
            let id = "odd\(index)"
            stations.append(Fixture.station(.vic, id, name: station.name, state: .VIC, latitude: -36 - Double(index) * 0.01, longitude: 144))
            for (fuel, tenths) in station.prices { prices.append(Fixture.price(.vic, id, tenths, fuel: fuel, at: at)) }
        }
        let result = Fixture.merge(ProviderUpdate(provider: .vic, stations: stations, prices: prices, asOf: at), at: at)
        var ids: [String: StationID] = [:]
        for entry in result.snapshot.entries { ids[entry.station.name] = entry.id }
        return (result.snapshot, ids)
    }

    static func implausible(_ snapshot: Snapshot, _ id: StationID?) -> [FuelType: Bool] {
        let judge = PriceJudge(snapshot: snapshot)
        guard let id, let entry = snapshot[id] else { return [:] }
        var out: [FuelType: Bool] = [:]
        for price in entry.prices { out[price.fuel] = judge.standing(of: price, at: entry.station).contains(.implausible) }
        return out
    }

    @Test func aStationQuotingOneRoundValueForEveryFuelIsAPlaceholderForAllOfThem() {
        let (snapshot, ids) = Self.market([("Caltex Reservoir", [.U91: 3_500, .E10: 3_500, .P98: 3_500, .PDL: 3_500])])
        // Before: U91, E10 and P98 were implausible, PDL 350.0 counted (+96.1 on a 253.9 median, within 40 %).
        #expect(Self.implausible(snapshot, ids["Caltex Reservoir"]) == [.U91: true, .E10: true, .P98: true, .PDL: true])
        let averages = Averages(snapshot: snapshot)
        #expect(averages.all.first { $0.state == .VIC && $0.fuel == .PDL }?.max == PriceTenths(tenths: 2_589))
    }

    @Test func aValueSharedByFuelsIsJudgedOnceForAllOfThem() {
        let (snapshot, ids) = Self.market([
            ("mitta general store", [.U91: 3_000, .P95: 3_000, .DL: 3_300]),
            ("Top End Servo Shell", [.U91: 2_999, .DL: 2_999, .LPG: 1_119]),
        ])
        // Before: U91 300 implausible while P95 300 and diesel 330 counted; U91 299.9 out, diesel 299.9 in.
        #expect(Self.implausible(snapshot, ids["mitta general store"]) == [.U91: true, .P95: true, .DL: true])
        #expect(Self.implausible(snapshot, ids["Top End Servo Shell"]) == [.U91: true, .DL: true, .LPG: false])
    }

    @Test func realLookingCountryLPGCounts() {
        let (snapshot, ids) = Self.market([
            ("Shell - Benetook Automotives", [.U91: 2_049, .LPG: 1_459]),  // Mildura
            ("Simpsons Fuel Alexandra", [.U91: 2_049, .P98: 2_299, .DL: 2_559, .PDL: 2_589, .LPG: 1_559]),
        ])
        // Before: both LPG prices were implausible (over 40 % above a 97.7 median).
        #expect(Self.implausible(snapshot, ids["Shell - Benetook Automotives"]) == [.U91: false, .LPG: false])
        #expect(Self.implausible(snapshot, ids["Simpsons Fuel Alexandra"])[.LPG] == false)
        let band = PriceJudge(snapshot: snapshot).bands[StateFuel(.VIC, .LPG)]
        #expect(band == PlausibleBand(median: 977, width: 0.4 * 1_999))
    }

    @Test func twoFuelsAtOnePlausiblePriceAreNotPlaceholders() {
        let (snapshot, ids) = Self.market([("Twin Pumps", [.U91: 1_989, .E10: 1_989])])
        #expect(Self.implausible(snapshot, ids["Twin Pumps"]) == [.U91: false, .E10: false])
    }

    @Test func theBandIsTheSameCentsForEveryFuelOfAState() {
        let (snapshot, ids) = Self.market([
            ("Just Inside", [.LPG: 977 + 799, .PDL: 2_539 + 799]),
            ("Just Outside", [.LPG: 977 + 801, .PDL: 2_539 + 801]),
        ])
        #expect(Self.implausible(snapshot, ids["Just Inside"]) == [.LPG: false, .PDL: false])
        #expect(Self.implausible(snapshot, ids["Just Outside"]) == [.LPG: true, .PDL: true])
    }
}
