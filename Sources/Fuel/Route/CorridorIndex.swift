import Synchronization

/// What route searches need of a snapshot, built once: the stations in narrow north-south strips of longitude,
/// each strip sorted by latitude and holding each station's location and `cosLatitude` (a request measures
/// thousands of candidates and reads these, never the station records or a cosine). A corridor box then visits
/// little beyond the stations inside it (the spatial grid's 0.1° cells hold several times a 2 km corridor box's
/// stations, and a route of 200 legs asks for dozens of boxes, one per run of legs: `CorridorRuns`).
///
/// A class: a route search copies the index (its subset, out of a `BuiltOnce` cell) several times, and a struct of
/// six shared arrays would be six reference counts bumped per copy, on cache lines both event loops write.
public final class CorridorIndex: Sendable {
    private let originLongitude: Double
    private let stripCount: Int
    /// `members[stripStart[s]..<stripStart[s + 1]]`: the slots in strip `s`, southernmost first; stations with
    /// invalid coordinates are in none.
    private let stripStart: [Int32]
    private let members: [Int32]
    /// The latitude, longitude and `cosLatitude` of each of `members`, side by side with it: a box reads these in
    /// order, where reading them by slot would miss the cache on nearly every station.
    private let memberLatitudes: [Double]
    private let memberLongitudes: [Double]
    private let memberCosLatitudes: [Double]
    /// `subset`'s store (nil in a subset).
    private let subsets: CorridorSubsets?

    /// About 1.8 km at Sydney's latitude: near a corridor's width, so a box spans a few strips.
    static let stripDegrees = 0.02

    public init(snapshot: Snapshot) {
        let locations = snapshot.entries.map(\.station.location)
        let valid = locations.indices.filter { locations[$0].isValid }
        let origin = valid.map { locations[$0].longitude }.min() ?? 0
        let count = Int((((valid.map { locations[$0].longitude }.max() ?? 0) - origin) / Self.stripDegrees).rounded(.down)) + 1
        let strip = valid.map { Self.strip(locations[$0].longitude, origin, count) }
        let order = valid.indices.sorted {
            (strip[$0], locations[valid[$0]].latitude, valid[$0]) < (strip[$1], locations[valid[$1]].latitude, valid[$1])
        }
        var start = [Int32](repeating: 0, count: count + 1)
        for position in order { start[strip[position] + 1] += 1 }
        for index in 1..<start.count { start[index] += start[index - 1] }
        originLongitude = origin
        stripCount = count
        stripStart = start
        members = order.map { Int32(valid[$0]) }
        memberLatitudes = order.map { locations[valid[$0]].latitude }
        memberLongitudes = order.map { locations[valid[$0]].longitude }
        memberCosLatitudes = order.map { locations[valid[$0]].cosLatitude }
        subsets = CorridorSubsets()
    }

    /// The stations `keeps` lets through, in the same strips and order, made on the first asking for `key` and
    /// kept as long as this index (a snapshot's). `FuelIndex.along` keys one per fuel: a route then scans only the
    /// stations selling it (a third of Sydney's sell no ranked U91), never asking each one's price.
    /// Built outside the lock, so other routes never wait on it; two first askers may both build it, and the first
    /// stored is the one kept.
    public func subset(_ key: Int, keeping keeps: (_ slot: Int) -> Bool) -> CorridorIndex {
        guard let subsets else { return filtered(keeps) }
        return subsets.cell(key).value { filtered(keeps) }
    }

    private func filtered(_ keeps: (Int) -> Bool) -> CorridorIndex {
        var start = [Int32](repeating: 0, count: stripCount + 1)
        var kept: [Int] = []
        for strip in 0..<stripCount {
            for position in Int(stripStart[strip])..<Int(stripStart[strip + 1]) where keeps(Int(members[position])) {
                kept.append(position)
            }
            start[strip + 1] = Int32(kept.count)
        }
        return CorridorIndex(
            originLongitude: originLongitude, stripCount: stripCount, stripStart: start, members: kept.map { members[$0] },
            memberLatitudes: kept.map { memberLatitudes[$0] }, memberLongitudes: kept.map { memberLongitudes[$0] },
            memberCosLatitudes: kept.map { memberCosLatitudes[$0] })
    }

    private init(
        originLongitude: Double, stripCount: Int, stripStart: [Int32], members: [Int32], memberLatitudes: [Double],
        memberLongitudes: [Double], memberCosLatitudes: [Double]
    ) {
        self.originLongitude = originLongitude
        self.stripCount = stripCount
        self.stripStart = stripStart
        self.members = members
        self.memberLatitudes = memberLatitudes
        self.memberLongitudes = memberLongitudes
        self.memberCosLatitudes = memberCosLatitudes
        subsets = nil
    }

    @inline(__always)
    private static func strip(_ longitude: Double, _ origin: Double, _ count: Int) -> Int {
        min(count - 1, max(0, Int(((longitude - origin) / stripDegrees).rounded(.down))))
    }

    /// Where the last search of each strip ended. A route's runs are neighbours, so the next box's southern edge
    /// in a strip is usually a member or two from the last one's: searching outward from there takes a step or two
    /// where a binary search of the strip takes a dozen, each a likely mispredicted branch.
    public struct StripHints {
        /// Direct-mapped by strip: `(strip << 32) | position`, or -1.
        fileprivate var slots = [Int64](repeating: -1, count: 64)

        public init() {}

        fileprivate func position(of strip: Int) -> Int? {
            let known = slots[strip & 63]
            return known >= 0 && Int(known >> 32) == strip ? Int(known & 0xFFFF_FFFF) : nil
        }

        fileprivate mutating func remember(_ position: Int, of strip: Int) {
            slots[strip & 63] = Int64(strip) << 32 | Int64(position)
        }
    }

    /// What a search of one box cost: strips searched, and members read in their latitude range (each one the
    /// body was called for, and those outside the box's longitudes).
    public struct Scan: Hashable, Sendable {
        public var strips = 0
        public var members = 0
    }

    /// Calls `body` with each station inside `box` (edges included, as `BoundingBox.contains`), in no particular
    /// order: its slot, location and `cosLatitude`.
    @inline(__always)
    @discardableResult
    public func forEach(in box: BoundingBox, _ body: (_ slot: Int, _ location: Coordinate, _ cosLatitude: Double) -> Void) -> Scan {
        var hints = StripHints()
        return forEach(in: box, hints: &hints, body)
    }

    /// The same, starting each strip's search where `hints` say the last box's ended (and noting where this one's
    /// does): for a sequence of neighbouring boxes.
    @inline(__always)
    @discardableResult
    public func forEach(
        in box: BoundingBox, hints: inout StripHints, _ body: (_ slot: Int, _ location: Coordinate, _ cosLatitude: Double) -> Void
    ) -> Scan {
        var scan = Scan()
        // A box east or west of every station searches no strip (clamped, it would search the edge one).
        guard !members.isEmpty, box.maxLng >= originLongitude,
            box.minLng <= originLongitude + Double(stripCount) * Self.stripDegrees
        else { return scan }
        for strip in Self.strip(box.minLng, originLongitude, stripCount)...Self.strip(box.maxLng, originLongitude, stripCount) {
            let end = Int(stripStart[strip + 1])
            var low = firstMember(atOrNorthOf: box.minLat, from: Int(stripStart[strip]), to: end, near: hints.position(of: strip))
            hints.remember(low, of: strip)
            scan.strips += 1
            let first = low
            while low < end, memberLatitudes[low] <= box.maxLat {
                let longitude = memberLongitudes[low]
                if longitude >= box.minLng && longitude <= box.maxLng {
                    body(Int(members[low]), Coordinate(latitude: memberLatitudes[low], longitude: longitude), memberCosLatitudes[low])
                }
                low += 1
            }
            scan.members += low - first
        }
        return scan
    }

    /// The first of `members[start..<end]` (one strip, southernmost first) at or north of `latitude`, or `end`.
    /// From `hint` (a position in `start...end`) the search gallops north or south, doubling its step, to a range
    /// holding the answer, then halves that range; without one it halves the whole strip.
    @inline(__always)
    private func firstMember(atOrNorthOf latitude: Double, from start: Int, to end: Int, near hint: Int?) -> Int {
        guard start < end else { return end }
        return memberLatitudes.withUnsafeBufferPointer { latitudes in
            // The answer lies in `low...high`; `high` is `end` or a member at or north of `latitude`.
            var low = start, high = end
            if let hint, hint >= start, hint <= end {
                var step = 1
                if hint < end && latitudes[hint] < latitude {
                    // Everything up to `low - 1` is south of `latitude`.
                    low = hint + 1
                    while low + step - 1 < end && latitudes[low + step - 1] < latitude {
                        low += step
                        step <<= 1
                    }
                    high = min(end, low + step - 1)
                } else {
                    high = hint
                    while high - step >= start && latitudes[high - step] >= latitude {
                        high -= step
                        step <<= 1
                    }
                    low = max(start, high - step + 1)
                }
            }
            var count = high - low
            while count > 0 {
                let half = count / 2
                if latitudes[low + half] < latitude {
                    low += half + 1
                    count -= half + 1
                } else {
                    count = half
                }
            }
            return low
        }
    }
}

/// `CorridorIndex.subset`'s subsets of one index, by key: one `BuiltOnce` each.
final class CorridorSubsets: Sendable {
    private let cells = Mutex<[Int: BuiltOnce<CorridorIndex>]>([:])

    func cell(_ key: Int) -> BuiltOnce<CorridorIndex> {
        cells.withLock { table in
            if let known = table[key] { return known }
            let made = BuiltOnce<CorridorIndex>()
            table[key] = made
            return made
        }
    }
}
