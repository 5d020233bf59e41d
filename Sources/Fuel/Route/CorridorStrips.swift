import Foundation

/// The parts of a corridor index's strips a route's corridor crosses, for one search: per strip, the latitude
/// bands within `detourKm` of some leg's stretch over that strip, overlapping bands merged. Bands are disjoint,
/// so a scan of them visits each station once, and a diagonal leg asks for a thin band per strip rather than its
/// whole bounding box. Each band lists the legs to measure its stations against.
struct CorridorStrips {
    struct Band {
        var strip: Int
        var minLat, maxLat: Double
        /// Into `bandLegs`: the legs whose stretch over the strip made the band, in no particular order.
        var legs: Range<Int>
    }

    /// The latitude/longitude bounds of a leg's two ends.
    struct LegBounds {
        var minLat, maxLat, minLng, maxLng: Double

        /// A lower bound of `RoutePath.offset`'s km from a point to the leg, which it measures in a flat frame
        /// centred on the point: the leg's closest point lies within these bounds, so it is no nearer than they are.
        @inline(__always)
        func distanceSquaredKm(latitude: Double, longitude: Double, xScale: Double) -> Double {
            let dy = max(0, minLat - latitude, latitude - maxLat) * RoutePath.kmPerDegree
            let dx = max(0, minLng - longitude, longitude - maxLng) * xScale
            return dx * dx + dy * dy
        }
    }

    /// Indexed by leg.
    private(set) var legBounds: [LegBounds] = []
    /// By strip, then latitude.
    private(set) var bands: [Band] = []
    private(set) var bandLegs: [Int] = []

    /// Degrees of slack on every band edge: far beyond the rounding of a strip's edge or a clipped leg's latitude.
    static let slackDegrees = 1e-9

    init(route: RoutePath, detourKm: Double, grid: CorridorIndex.StripGrid) {
        let points = route.points
        let kmPerDegree = RoutePath.kmPerDegree
        let dLat = detourKm / kmPerDegree
        let slack = Self.slackDegrees
        legBounds.reserveCapacity(route.segmentCount)
        // A leg whose corridor box would reach a pole has no corridor, as `RoutePath.corridorBox` says.
        var widest = 0.0
        for leg in 0..<route.segmentCount {
            let a = points[leg], b = points[leg + 1]
            let bounds = LegBounds(
                minLat: min(a.latitude, b.latitude), maxLat: max(a.latitude, b.latitude),
                minLng: min(a.longitude, b.longitude), maxLng: max(a.longitude, b.longitude))
            legBounds.append(bounds)
            let reach = max(abs(bounds.minLat - dLat), abs(bounds.maxLat + dLat))
            if reach < 89 { widest = max(widest, reach) }
        }
        guard grid.count > 0 else { return }
        // A station within `detourKm` of a leg point is within this many degrees of longitude of it (`offset`
        // scales longitude by the station's cosine, no smaller than at the route's highest |latitude| reached).
        let dLng = detourKm / (kmPerDegree * cos(widest * Double.pi / 180)) + slack

        // Each leg's stretch over each strip it reaches, as a latitude band, in route order.
        var stretches: [Stretch] = []
        stretches.reserveCapacity(route.segmentCount * 4)
        var firstStrip = Int.max, lastStrip = Int.min
        for leg in 0..<route.segmentCount {
            let bounds = legBounds[leg]
            guard max(abs(bounds.minLat - dLat), abs(bounds.maxLat + dLat)) < 89 else { continue }
            let a = points[leg], b = points[leg + 1]
            let run = b.longitude - a.longitude
            let west = grid.strip(bounds.minLng - dLng), east = grid.strip(bounds.maxLng + dLng)
            firstStrip = min(firstStrip, west)
            lastStrip = max(lastStrip, east)
            for strip in west...east {
                let stripWest = grid.west(of: strip) - dLng, stripEast = grid.west(of: strip + 1) + dLng
                var low = bounds.minLat, high = bounds.maxLat
                if run != 0 {
                    let t0 = (stripWest - a.longitude) / run, t1 = (stripEast - a.longitude) / run
                    let first = max(0, min(t0, t1)), last = min(1, max(t0, t1))
                    guard first <= last else { continue }
                    let lat0 = a.latitude + first * (b.latitude - a.latitude)
                    let lat1 = a.latitude + last * (b.latitude - a.latitude)
                    low = max(bounds.minLat, min(lat0, lat1))
                    high = min(bounds.maxLat, max(lat0, lat1))
                } else if a.longitude < stripWest || a.longitude > stripEast {
                    continue
                }
                stretches.append(Stretch(strip: strip, leg: leg, minLat: low - dLat - slack, maxLat: high + dLat + slack))
            }
        }
        guard !stretches.isEmpty else { return }
        // Grouped by strip (a counting sort, keeping route order within a strip).
        var start = [Int](repeating: 0, count: lastStrip - firstStrip + 2)
        for stretch in stretches { start[stretch.strip - firstStrip + 1] += 1 }
        for index in 1..<start.count { start[index] += start[index - 1] }
        var byStrip = stretches
        var next = start
        for stretch in stretches {
            byStrip[next[stretch.strip - firstStrip]] = stretch
            next[stretch.strip - firstStrip] += 1
        }
        bandLegs.reserveCapacity(byStrip.count)
        // Per strip: consecutive stretches that overlap (a passage of the route through the strip) make a group;
        // groups, few per strip, sorted by southern edge and merged where they overlap, make the bands.
        var groups: [Group] = []
        for strip in firstStrip...lastStrip {
            let from = start[strip - firstStrip], to = start[strip - firstStrip + 1]
            guard from < to else { continue }
            groups.removeAll(keepingCapacity: true)
            var group = Group(minLat: byStrip[from].minLat, maxLat: byStrip[from].maxLat, stretches: from..<(from + 1))
            for position in (from + 1)..<to {
                let stretch = byStrip[position]
                if stretch.minLat <= group.maxLat && stretch.maxLat >= group.minLat {
                    group.minLat = min(group.minLat, stretch.minLat)
                    group.maxLat = max(group.maxLat, stretch.maxLat)
                    group.stretches = group.stretches.lowerBound..<(position + 1)
                } else {
                    groups.append(group)
                    group = Group(minLat: stretch.minLat, maxLat: stretch.maxLat, stretches: position..<(position + 1))
                }
            }
            groups.append(group)
            if groups.count > 1 { groups.sort { $0.minLat < $1.minLat } }
            var band = Band(strip: strip, minLat: groups[0].minLat, maxLat: groups[0].maxLat, legs: bandLegs.count..<bandLegs.count)
            for group in groups {
                if group.minLat > band.maxLat {
                    band.legs = band.legs.lowerBound..<bandLegs.count
                    bands.append(band)
                    band = Band(strip: strip, minLat: group.minLat, maxLat: group.maxLat, legs: bandLegs.count..<bandLegs.count)
                }
                band.maxLat = max(band.maxLat, group.maxLat)
                for position in group.stretches { bandLegs.append(byStrip[position].leg) }
            }
            band.legs = band.legs.lowerBound..<bandLegs.count
            bands.append(band)
        }
    }

    /// A leg's stretch over a strip, widened to a latitude band.
    private struct Stretch {
        var strip: Int
        var leg: Int
        var minLat, maxLat: Double
    }

    /// Stretches of one strip, consecutive in route order, whose bands overlap.
    private struct Group {
        var minLat, maxLat: Double
        var stretches: Range<Int>
    }
}
