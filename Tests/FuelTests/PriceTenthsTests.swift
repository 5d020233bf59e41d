import Testing
@testable import Fuel

@Suite struct PriceTenthsTests {
    @Test func roundsCentsToTenths() {
        #expect(PriceTenths(cents: 225.9).tenths == 2259)
        #expect(PriceTenths(cents: 225).description == "225.0")
    }

    @Test func absurdValuesSaturateInsteadOfTrapping() {
        #expect(PriceTenths(cents: 1e300).tenths == 1_000_000_000_000_000)
        #expect(PriceTenths(cents: -.infinity).tenths == -1_000_000_000_000_000)
        #expect(PriceTenths(cents: .nan).tenths == 0)
    }
}
