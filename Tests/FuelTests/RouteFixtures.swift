import Foundation

@testable import Fuel

/// What the route-search tests share: a random patch of stations and the plain scan the corridor must agree with.
extension Fixture {
    /// `count` stations at random over a patch around Sydney (seeded), each selling U91 at a price from its id.
    static func sydneyPatch(count: Int, seed: UInt64) -> FuelIndex {
        var generator = SeededGenerator(seed: seed)
        let ids = (1...count).map(String.init)
        let update = ProviderUpdate(
            provider: .nsw,
            stations: ids.map { id in
                station(
                    .nsw, id, latitude: Double.random(in: -34.3 ... -33.4, using: &generator),
                    longitude: Double.random(in: 150.6...151.4, using: &generator))
            },
            prices: ids.map { price(.nsw, $0, 1_700 + Int($0)! % 300) },
            asOf: now)
        return FuelIndex(snapshot: merge(update).snapshot)
    }

    /// Every station against every leg, nearest leg first and the earlier on a tie: what the corridor must find.
    static func bruteForceAlong(_ route: RoutePath, detourKm: Double, in index: FuelIndex) -> [AlongHit] {
        index.snapshot.entries.indices.compactMap { slot in
            var best: AlongHit?
            for segment in 0..<route.segmentCount {
                let (off, along) = route.offset(of: index.snapshot.entries[slot].station.location, fromSegment: segment)
                if off <= detourKm, off < (best?.detourKm ?? .infinity) { best = AlongHit(slot: slot, alongKm: along, detourKm: off) }
            }
            return best
        }
    }
}

extension Coordinate {
    /// `km` further on, `heading` radians clockwise from north, in the local flat frame the random drives step in.
    func stepped(km: Double, heading: Double) -> Coordinate {
        let kmPerDegree = Coordinate.earthRadiusKm * Double.pi / 180
        return Coordinate(
            latitude: latitude + km * cos(heading) / kmPerDegree,
            longitude: longitude + km * sin(heading) / (kmPerDegree * cosLatitude))
    }
}
