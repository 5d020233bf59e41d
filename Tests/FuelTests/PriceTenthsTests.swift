import Testing
@testable import Fuel

@Suite struct PriceTenthsTests {
    @Test func roundsCentsToTenths() {
        #expect(PriceTenths(cents: 225.9).tenths == 2259)
        #expect(PriceTenths(cents: 225).description == "225.0")
    }
}
