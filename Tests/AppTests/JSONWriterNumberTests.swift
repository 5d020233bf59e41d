import Foundation
import Testing
import Fuel
@testable import API
@testable import App

/// Numbers are written digit by digit into the buffer; every byte must be what the String-based writer it
/// replaced wrote (a reference copy below), rounding and trimming included.
@Suite struct JSONWriterNumberTests {
    func written(_ write: (inout JSONWriter) -> Void) -> String {
        var json = JSONWriter()
        write(&json)
        return String(decoding: json.bytes, as: UTF8.self)
    }

    /// The replaced writer: whole part through `String`, fraction digits trimmed of trailing zeros.
    static func reference(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let magnitude = (abs(value) * scale).rounded()
        guard magnitude.isFinite, magnitude < 0x1p53 else { return "null" }
        let scaled = Int(magnitude)
        var text = value < 0 && scaled != 0 ? "-" : ""
        text += String(scaled / Int(scale))
        var fraction = String(scaled % Int(scale))
        guard fraction != "0" else { return text }
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return text + "." + fraction
    }

    @Test(arguments: [
        0, 0.004, 0.005, 0.049, 0.05, 0.1, 0.999, 0.995, 1, 1.005, 1.1, 2.5, 9.995, 10, 10.01, 49.999, 100.5, 1_234.56,
        12_345.675, -0.004, -0.005, -1.25, 1e12, 1e300, .nan, .infinity, -.infinity,
    ])
    func edgeValuesAreWrittenAsBefore(_ value: Double) {
        for places in [0, 1, 2, 5] {
            #expect(written { $0.decimal(value, places: places) } == Self.reference(value, places: places), "\(value) places \(places)")
        }
    }

    @Test func distancesMoneyAndCoordinatesAreWrittenAsBefore() {
        // Every hundredth within ±50 (savings are negative too), the halfway points between them (where rounding
        // decides), an irregular stride out to 1,000 km, and coordinates at five places.
        let hundredths = (-5_000..<5_000).flatMap { [Double($0) / 100, (Double($0) + 0.5) / 100] }
        for km in hundredths + (0..<20_000).map({ Double($0) * 0.049_993 }) {
            #expect(written { $0.decimal(km, places: 2) } == Self.reference(km, places: 2), "\(km)")
        }
        for step in 0..<5_000 {
            let latitude = -44 + Double(step) * 0.006_173_1
            #expect(written { $0.decimal(latitude, places: 5) } == Self.reference(latitude, places: 5), "\(latitude)")
        }
    }

    @Test func centsAreWrittenAsTheirDollarsWere() {
        // Fill costs and savings are whole cents: written from the integer, the bytes must be the ones the
        // Double route (`Double(cents) / 100` at two places) wrote.
        let large = [1 << 49, (1 << 50) - 1, 1 << 50, 1 << 52, Int.max / 1_000].flatMap { [$0, -$0] }
        for cents in Array(-200_000...200_000) + large {
            #expect(written { $0.hundredths(ofInteger: cents) } == Self.reference(Double(cents) / 100, places: 2), "\(cents)")
        }
    }

    @Test func decimalsReadAsDecimals() {
        #expect(written { $0.decimal(3.14159, places: 2) } == "3.14")
        #expect(written { $0.decimal(0.5, places: 2) } == "0.5")
        #expect(written { $0.decimal(0.07, places: 2) } == "0.07")
        #expect(written { $0.decimal(12, places: 2) } == "12")
        #expect(written { $0.decimal(-33.86785, places: 5) } == "-33.86785")
    }

    @Test(arguments: [0, 7, 10, 99, 100, 1_899, 12_345, -1, -10, -190, Int.max, Int.min + 1])
    func integersAreWrittenAsStringWritesThem(_ value: Int) {
        #expect(written { $0.int(value) } == String(value))
    }

    @Test(arguments: [0, 1, 9, 10, 1_899, 2_105, 10_000, -5, -1_899])
    func pricesAreWrittenAsTheirDescription(_ tenths: Int) {
        let price = PriceTenths(tenths: tenths)
        #expect(written { $0.price(price) } == price.description)
    }
}
