import Foundation
import Testing

@testable import Fuel

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

    @Test func thePointLimitIsInclusive() throws {
        let points = (0..<10).map { Coordinate(latitude: -33 - Double($0) / 100, longitude: 151) }
        #expect(try Polyline.decode(Polyline.encode(points), maximumPoints: 10).count == 10)
        #expect(throws: Polyline.DecodingError.tooManyPoints(limit: 9)) { try Polyline.decode(Polyline.encode(points), maximumPoints: 9) }
    }
}
