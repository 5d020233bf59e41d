import Testing
@testable import API
@testable import App

/// `decimal` is the last line of defence for coordinates and distances: whatever slips past validation is
/// written as `null`, never a trap that takes the server down.
@Suite struct JSONWriterDecimalTests {
    func written(_ value: Double, places: Int = 6) -> String {
        var json = JSONWriter()
        json.decimal(value, places: places)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    @Test func ordinaryValuesKeepTheirDigits() {
        #expect(written(-33.868800) == "-33.8688")
        #expect(written(151.2093) == "151.2093")
        #expect(written(2.5, places: 2) == "2.5")
    }

    @Test(arguments: [Double.nan, .infinity, -.infinity, 1e300, -1e300, 1e12])
    func valuesThatCannotBeWrittenExactlyAreNull(_ value: Double) {
        #expect(written(value) == "null")
    }
}
