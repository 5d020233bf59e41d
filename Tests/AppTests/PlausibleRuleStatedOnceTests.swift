import Foundation
import Fuel
import Testing
@testable import App

/// Issue 48 §6: the plausibility rule the README states is the one the code applies, to the cent on the VIC sample.
@Suite struct PlausibleRuleStatedOnceTests {
    @Test func theVICBandIsFortyPercentOfTheMedianU91EitherSideOfEachFuelsMedian() throws {
        let judge = AppTestSupport.sampleDataset.snapshot.judge
        let u91 = try require(judge.medians[StateFuel(.VIC, .U91)])
        let diesel = try require(judge.bands[StateFuel(.VIC, .DL)])
        // README: "VIC's median U91 of 199.9 c/L gives 79.96 c/L: diesel's band around its 249.9 median ends at 329.86".
        #expect(PricePolicy.implausibleDeviation == 0.40)
        #expect(u91 == 1_999 && diesel.median == 2_499)
        #expect(abs(diesel.width - 799.6) < 1e-9)
        #expect(diesel.contains(PriceTenths(tenths: 3_298)) && !diesel.contains(PriceTenths(tenths: 3_299)))
    }
}
