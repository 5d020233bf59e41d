import Testing
@testable import API
@testable import App

/// `hundredths` is `decimal(_, places: 2)` without allocations: every byte the same, rounding and trimming included.
@Suite struct JSONWriterHundredthsTests {
    func written(_ write: (inout JSONWriter) -> Void) -> String {
        var json = JSONWriter()
        write(&json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    @Test(arguments: [
        0, 0.004, 0.005, 0.049, 0.05, 0.1, 0.999, 0.995, 1, 1.005, 1.1, 2.5, 9.995, 10, 10.01, 49.999, 100.5, 1_234.56,
        12_345.675, -0.004, -0.005, -1.25, 1e12, 1e300, .nan, .infinity, -.infinity,
    ])
    func edgeValuesAreWrittenAsDecimalWritesThem(_ km: Double) {
        #expect(written { $0.hundredths(km) } == written { $0.decimal(km, places: 2) })
    }

    @Test func distancesAndMoneyAreWrittenAsDecimalWritesThem() {
        // Every hundredth within ±50 (savings are negative too), the halfway points between them (where rounding
        // decides), and an irregular stride out to 1,000 km.
        let hundredths = (-5_000..<5_000).flatMap { [Double($0) / 100, (Double($0) + 0.5) / 100] }
        for km in hundredths + (0..<20_000).map({ Double($0) * 0.049_993 }) {
            #expect(written { $0.hundredths(km) } == written { $0.decimal(km, places: 2) }, "\(km)")
        }
    }

    @Test func hundredthsReadAsADecimal() {
        #expect(written { $0.hundredths(3.14159) } == "3.14")
        #expect(written { $0.hundredths(0.5) } == "0.5")
        #expect(written { $0.hundredths(0.07) } == "0.07")
        #expect(written { $0.hundredths(12) } == "12")
    }
}
