import Foundation
import Testing

@testable import Fuel
import TestSupport

@Suite struct PolylineTests {
    @Test func googlesDocumentedExampleDecodes() throws {
        // From Google's "Encoded Polyline Algorithm Format" page: (38.5, -120.2), (40.7, -120.95), (43.252, -126.453).
        let points = try Polyline.decode("_p~iF~ps|U_ulLnnqC_mqNvxq`@")
        #expect(points.map(\.latitude) == [38.5, 40.7, 43.252])
        #expect(points.map(\.longitude) == [-120.2, -120.95, -126.453])
        #expect(Polyline.encode(points) == "_p~iF~ps|U_ulLnnqC_mqNvxq`@")
    }

    @Test func encodingRoundTripsAtFiveDecimals() throws {
        let points = [Coordinate(latitude: -33.86882, longitude: 151.20929), Coordinate(latitude: -37.81361, longitude: 144.96305)]
        #expect(try Polyline.decode(Polyline.encode(points)) == points)
    }

    @Test func malformedTextIsNamed() {
        #expect(throws: Polyline.DecodingError.empty) { try Polyline.decode("") }
        #expect(throws: Polyline.DecodingError.invalidCharacter(position: 3)) { try Polyline.decode("_p~ iF") }
        // A latitude without its longitude, and a number cut mid-chunk.
        #expect(throws: Polyline.DecodingError.truncated) { try Polyline.decode("_p~iF") }
        #expect(throws: Polyline.DecodingError.truncated) { try Polyline.decode("_p~iF~ps") }
        // Eight continuation chunks: no coordinate needs that many bits.
        #expect(throws: Polyline.DecodingError.invalidCharacter(position: 7)) { try Polyline.decode("~~~~~~~~~~?") }
        // 89 then 91 degrees north.
        #expect(throws: Polyline.DecodingError.outOfRange(point: 2)) {
            try Polyline.decode(Polyline.encode([Coordinate(latitude: 89, longitude: 0)]) + Polyline.encode([Coordinate(latitude: 2, longitude: 0)]))
        }
    }

    /// The range is judged on the format's integers: ±90° and ±180° exactly decode, one step of 1e-5° past either
    /// is refused, on both sides of the equator and the antimeridian.
    @Test func theCoordinateRangeIsInclusiveToTheLastStep() throws {
        for edge in [Coordinate(latitude: 90, longitude: 180), Coordinate(latitude: -90, longitude: -180)] {
            #expect(try Polyline.decode(Polyline.encode([Coordinate(latitude: 0, longitude: 0), edge])) == [Coordinate(latitude: 0, longitude: 0), edge])
        }
        for past in [
            Coordinate(latitude: 90.00001, longitude: 0), Coordinate(latitude: -90.00001, longitude: 0),
            Coordinate(latitude: 0, longitude: 180.00001), Coordinate(latitude: 0, longitude: -180.00001),
        ] {
            #expect(throws: Polyline.DecodingError.outOfRange(point: 2), "\(past)") {
                try Polyline.decode(Polyline.encode([Coordinate(latitude: 0, longitude: 0), past]))
            }
        }
    }

    @Test func thePointLimitIsInclusive() throws {
        let points = (0..<10).map { Coordinate(latitude: -33 - Double($0) / 100, longitude: 151) }
        #expect(try Polyline.decode(Polyline.encode(points), maximumPoints: 10).count == 10)
        #expect(throws: Polyline.DecodingError.tooManyPoints(limit: 9)) { try Polyline.decode(Polyline.encode(points), maximumPoints: 9) }
    }

    /// `decode(percentEncoded:)` against unescaping then `decode`, over random routes escaped every way a client
    /// might (nothing, everything, lower-case hex, the characters Python's `quote` escapes) and random damage: where
    /// it answers it answers the same points, and it answers every cleanly escaped text `decode` accepts.
    @Test func percentEncodedTextDecodesAsItsUnescapedText() throws {
        var random = SplitMix64(seed: 26)
        let alphabet = Array("?@[\\]^_`{|}~abcAZ09%+ &=".utf8)
        for trial in 0..<2_000 {
            var points: [Coordinate] = []
            var latitude = -34 + Double.random(in: 0..<1, using: &random), longitude = 151 + Double.random(in: 0..<1, using: &random)
            for _ in 0..<(1 + Int.random(in: 0..<40, using: &random)) {
                latitude += (Double.random(in: 0..<1, using: &random) - 0.5) / 50
                longitude += (Double.random(in: 0..<1, using: &random) - 0.5) / 50
                points.append(Coordinate(latitude: latitude, longitude: longitude))
            }
            var text = Array(Polyline.encode(points).utf8)
            if trial % 4 == 3 {
                // Damage: a byte replaced, cut short, or a stray one inserted.
                let position = Int.random(in: 0..<text.count, using: &random)
                switch Int.random(in: 0..<3, using: &random) {
                case 0: text[position] = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
                case 1: text.removeSubrange(position...)
                default: text.insert(alphabet[Int.random(in: 0..<alphabet.count, using: &random)], at: position)
                }
            }
            let escaped = Self.escape(text, style: trial % 4)
            let limit = trial % 7 == 0 ? points.count - 1 : AlongQuery.maximumPoints
            let plain = try? Polyline.decode(String(decoding: text, as: UTF8.self), maximumPoints: limit)
            let fast = escaped.withUnsafeBufferPointer { Polyline.decode(percentEncoded: $0, maximumPoints: limit) }
            let cleanlyEscaped = text.allSatisfy { (63...126).contains($0) }
            if let fast { #expect(fast == plain, "\(String(decoding: escaped, as: UTF8.self))") }
            if cleanlyEscaped, let plain { #expect(fast == plain, "\(String(decoding: escaped, as: UTF8.self))") }
            if !cleanlyEscaped { #expect(fast == nil) }
        }
    }

    @Test func percentEncodedTextNamesNothingItCannotReadCleanly() {
        func fast(_ text: String) -> [Coordinate]? {
            Array(text.utf8).withUnsafeBufferPointer { Polyline.decode(percentEncoded: $0, maximumPoints: 10) }
        }
        #expect(fast("_p~iF~ps%7CU_ulLnnqC") == (try? Polyline.decode("_p~iF~ps|U_ulLnnqC")))
        #expect(fast("_p~iF~ps%7cU_ulLnnqC") == (try? Polyline.decode("_p~iF~ps|U_ulLnnqC")))
        #expect(fast("") == nil)
        #expect(fast("_p~iF~ps%7") == nil)  // an escape cut short
        #expect(fast("_p~iF~ps%7GU_ulLnnqC") == nil)  // not hex
        #expect(fast("_p~iF~ps%20U_ulLnnqC") == nil)  // a space
        #expect(fast("+_p~iF~ps%7CU_ulLnnqC") == nil)  // a space, which the plain reading trims
        #expect(fast("_p~iF") == nil)  // truncated
    }

    /// `text` as a query value: 0 as is (where its bytes allow), 1 every byte escaped, 2 escaped in lower-case hex,
    /// 3 as Python's `urllib.parse.quote(safe="")` (the benchmark's routes).
    static func escape(_ text: [UInt8], style: Int) -> [UInt8] {
        let hex = Array((style == 2 ? "0123456789abcdef" : "0123456789ABCDEF").utf8)
        let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-~".utf8)
        var out: [UInt8] = []
        for byte in text {
            let keep = style == 0 ? byte != UInt8(ascii: "%") : style == 3 && unreserved.contains(byte)
            if keep {
                out.append(byte)
            } else {
                out += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            }
        }
        return out
    }
}
