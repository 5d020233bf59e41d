import Foundation
import Testing
import TestSupport

@testable import Fuel

/// `fill_cost` = price × (litres + 2 × km × l_per_100km / 100), in cents; every expected value worked by hand.
@Suite struct FillPlanTests {
    @Test func theDefaultFillAtTheDoorIsFortyLitresAtThePumpPrice() {
        // 189.9 c/L × 40 L = 7596 c.
        #expect(FillPlan().costCents(priceTenths: 1_899, distanceKm: 0) == 7_596)
    }

    @Test func theDriveThereAndBackIsBoughtAtTheSamePrice() {
        // 5 km away at 8 L/100 km: 40 + 2 × 5 × 0.08 = 40.8 L; × 189.9 = 7747.92 c → 7748 c.
        #expect(FillPlan().costCents(priceTenths: 1_899, distanceKm: 5) == 7_748)
        // 12.5 km at 10 L/100 km for 30 L: 30 + 2.5 = 32.5 L; × 200.0 = 6500 c.
        #expect(FillPlan(litres: 30, litresPer100Km: 10).costCents(priceTenths: 2_000, distanceKm: 12.5) == 6_500)
    }

    @Test func halfACentRoundsUpAndLessRoundsDown() {
        let litre = FillPlan(litres: 1, litresPer100Km: 8)
        #expect(litre.costCents(priceTenths: 1_005, distanceKm: 0) == 101)  // 100.5 c
        #expect(litre.costCents(priceTenths: 1_004, distanceKm: 0) == 100)  // 100.4 c
    }

    /// Against decimal arithmetic on the figures served (distance, litres and L/100 km to the hundredth), over random
    /// fills and drives, half cents included: what a client recomputing from the response gets (issue 48 §7).
    @Test func costsFollowFromTheServedFiguresInDecimalArithmetic() {
        var generator = SplitMix64(seed: 7)
        func served(_ value: Double) -> Decimal {
            var input = Decimal(value)
            var output = Decimal()
            NSDecimalRound(&output, &input, 2, .plain)
            return output
        }
        for _ in 0..<20_000 {
            let plan = FillPlan(litres: Double.random(in: 1...200, using: &generator).rounded() / [1, 2, 4][Int.random(in: 0...2, using: &generator)],
                                litresPer100Km: Double.random(in: 2...30, using: &generator))
            let price = Int.random(in: 0...40_000, using: &generator)
            let distance = [0, Double.random(in: 0...50, using: &generator), Double(Int.random(in: 0...5_000, using: &generator)) / 100][Int.random(in: 0...2, using: &generator)]
            var cents = Decimal(price) / 10 * (served(plan.litres) + 2 * served(distance) * served(plan.litresPer100Km) / 100)
            var expected = Decimal()
            NSDecimalRound(&expected, &cents, 0, .plain)
            #expect(Decimal(plan.costCents(priceTenths: price, distanceKm: distance)) == expected, "\(price) \(distance) \(plan)")
        }
    }

    @Test func theBoundsAreInclusive() {
        #expect(FillPlan(litres: 1, litresPer100Km: 2).isValid)
        #expect(FillPlan(litres: 200, litresPer100Km: 30).isValid)
        #expect(!FillPlan(litres: 0.99, litresPer100Km: 8).isValid)
        #expect(!FillPlan(litres: 200.01, litresPer100Km: 8).isValid)
        #expect(!FillPlan(litres: 40, litresPer100Km: 1.99).isValid)
        #expect(!FillPlan(litres: 40, litresPer100Km: 30.01).isValid)
    }

    /// Near: 200.0 c/L 1 km north. Far: 190.0 c/L 10 km north.
    func index() -> FuelIndex {
        let update = ProviderUpdate(
            provider: .nsw,
            stations: [
                Fixture.station(.nsw, "near", latitude: origin.latitude + 1 / kmPerDegree, longitude: origin.longitude),
                Fixture.station(.nsw, "far", latitude: origin.latitude + 10 / kmPerDegree, longitude: origin.longitude),
                Fixture.station(.nsw, "diesel", latitude: origin.latitude + 0.5 / kmPerDegree, longitude: origin.longitude),
            ],
            prices: [Fixture.price(.nsw, "near", 2_000), Fixture.price(.nsw, "far", 1_900), Fixture.price(.nsw, "diesel", 1_500, fuel: .DL)],
            asOf: Fixture.now)
        return FuelIndex(snapshot: Fixture.merge(update).snapshot)
    }

    let origin = Coordinate(latitude: -33.9, longitude: 151.1)
    let kmPerDegree = Coordinate.earthRadiusKm * Double.pi / 180

    func query(_ plan: FillPlan, sort: StationQuery.Sort? = .fillCost) -> StationQuery {
        var query = StationQuery(fuel: .U91, near: origin, radiusKm: 20, sort: sort)
        query.fill = plan
        return query
    }

    @Test func aFrugalCarDrivesTenKilometresForTenCents() throws {
        // Near: 40 + 2 × 1 × 0.08 = 40.16 L × 200.0 = 8032 c. Far: 40 + 1.6 = 41.6 L × 190.0 = 7904 c.
        let index = index()
        let page = try index.slots(matching: query(FillPlan()))
        let names = page.hits.map { index.snapshot.entries[$0.slot].station.name }
        #expect(names == ["Station far", "Station near"])
        #expect(page.hits.map(\.fillCostCents) == [7_904, 8_032])
        // The nearest station selling U91 (the diesel-only one is nearer but does not count) is the reference.
        #expect(page.fillReference.map { index.snapshot.entries[$0.slot].station.name } == "Station near")
        #expect(page.fillReference?.costCents == 8_032)
    }

    @Test func aThirstyCarStaysNearby() throws {
        // 20 L/100 km. Near: 40 + 0.4 = 40.4 L × 200.0 = 8080 c. Far: 40 + 4 = 44 L × 190.0 = 8360 c.
        let index = index()
        let page = try index.slots(matching: query(FillPlan(litres: 40, litresPer100Km: 20)))
        #expect(page.hits.map(\.fillCostCents) == [8_080, 8_360])
        #expect(page.fillReference?.costCents == 8_080)
    }

    @Test func theBreakEvenSitsBetweenTheTwoConsumptions() throws {
        // Equal when 200 × (40 + 0.02c) = 190 × (40 + 0.2c): 8000 + 4c = 7600 + 38c, c = 400/34 ≈ 11.76 L/100 km.
        let index = index()
        let below = try index.slots(matching: query(FillPlan(litres: 40, litresPer100Km: 11.7)))
        let above = try index.slots(matching: query(FillPlan(litres: 40, litresPer100Km: 11.8)))
        #expect(below.hits.first.map { index.snapshot.entries[$0.slot].station.name } == "Station far")
        #expect(above.hits.first.map { index.snapshot.entries[$0.slot].station.name } == "Station near")
    }

    @Test func fillNeedsNearAndOneFuel() {
        var query = StationQuery(fuel: .U91, sort: .fillCost)
        query.fill = FillPlan()
        #expect(throws: QueryError.fillNeedsNearAndFuel) { try query.validate() }
        var noPlan = StationQuery(fuel: .U91, near: origin, sort: .fillCost)
        noPlan.fill = nil
        #expect(throws: QueryError.fillCostSortNeedsNearAndFuel) { try noPlan.validate() }
        var tooMuch = self.query(FillPlan(litres: 500, litresPer100Km: 8))
        tooMuch.sort = nil
        #expect(throws: QueryError.invalidFill) { try tooMuch.validate() }
    }
}
