import Testing

@testable import Fuel

@Suite struct OrdinalTests {
    @Test func stateOrdinalsMatchTheirPositionInAllCases() {
        for (position, state) in AustralianState.allCases.enumerated() { #expect(state.ordinal == position) }
    }

    @Test func fuelOrdinalsMatchTheirPositionInAllCases() {
        for (position, fuel) in FuelType.allCases.enumerated() { #expect(fuel.ordinal == position) }
    }

    @Test func stationIdsParseOnlyPlainPositiveNumbers() {
        #expect(StationID("42"[...]) == 42)
        #expect(StationID("0"[...]) == nil)
        #expect(StationID("-3"[...]) == nil)
        #expect(StationID("+3"[...]) == nil)
        #expect(StationID("4a"[...]) == nil)
        #expect(StationID("99999999999999999999"[...]) == nil)
    }
}
