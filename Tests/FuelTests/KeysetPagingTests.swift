import Foundation
import Testing

@testable import Fuel

/// `after=X` lists only stations whose id is greater than X, on every path a list takes (the plain listing and
/// every filter the candidate gatherer applies), and paging by it visits each station once.
@Suite struct KeysetPagingTests {
    /// 40 NSW stations and 20 VIC ones, ids 1 to 60, every third selling DL, brands alternating.
    static let index: FuelIndex = {
        let nsw = ProviderUpdate(
            provider: .nsw,
            stations: (1...40).map { Fixture.station(.nsw, "\($0)", brand: $0 % 2 == 0 ? "Shell" : "BP", latitude: -33.8 - Double($0) * 0.001) },
            prices: (1...40).map { Fixture.price(.nsw, "\($0)", 1_800 + $0) } + stride(from: 3, through: 40, by: 3).map { Fixture.price(.nsw, "\($0)", 2_000, fuel: .DL) },
            asOf: Fixture.now)
        let first = Fixture.merge(nsw)
        let vic = ProviderUpdate(
            provider: .vic,
            stations: (1...20).map { Fixture.station(.vic, "v\($0)", brand: "Shell", state: .VIC, latitude: -37.8, longitude: 144.9) },
            prices: (1...20).map { Fixture.price(.vic, "v\($0)", 1_700 + $0) }, asOf: Fixture.now)
        return FuelIndex(snapshot: Fixture.merge(vic, into: first.snapshot, registry: first.registry).snapshot)
    }()

    /// One query per path: the plain listing, a state, a fuel, several fuels, a brand, an excluded brand, a box, a
    /// postcode, a search.
    static let paths: [(String, StationQuery)] = {
        var queries: [(String, StationQuery)] = [("plain", StationQuery()), ("state", StationQuery(state: .NSW))]
        queries.append(("fuel", StationQuery(fuel: .DL)))
        var several = StationQuery()
        several.fuels = [.DL, .U91]
        queries.append(("fuels", several))
        queries.append(("brand", StationQuery(brand: "shell")))
        var excluded = StationQuery()
        excluded.excludedBrands = ["BP"]
        queries.append(("exclude_brand", excluded))
        queries.append(("bbox", StationQuery(bbox: try! BoundingBox(minLat: -34, minLng: 151, maxLat: -33.7, maxLng: 151.5))))
        var postcode = StationQuery()
        postcode.postcode = "2000"
        queries.append(("postcode", postcode))
        return queries
    }()

    static func ids(_ query: StationQuery) throws -> [Int] {
        try index.slots(matching: query).hits.map { index.snapshot.entries[$0.slot].id.rawValue }
    }

    @Test(arguments: [1, 2, 3, 17, 39, 40, 41, 59, 60])
    func everyIdOnThePageIsGreaterThanAfter(after: Int) throws {
        for (path, base) in Self.paths {
            var query = base
            query.limit = 500
            query.after = StationID(after)
            let ids = try Self.ids(query)
            var unbounded = base
            unbounded.limit = 500
            let expected = try Self.ids(unbounded).filter { $0 > after }
            #expect(ids == expected, "\(path) after=\(after)")
            #expect(ids.allSatisfy { $0 > after }, "\(path) after=\(after): \(ids.prefix(3))")
        }
    }

    @Test func pagingByAfterVisitsEveryStationOnce() throws {
        for (path, base) in Self.paths {
            var all = base
            all.limit = 500
            let expected = try Self.ids(all)
            var seen: [Int] = []
            var query = base
            query.limit = 7
            for _ in 0..<100 {
                let page = try Self.index.slots(matching: query)
                let ids = page.hits.map { Self.index.snapshot.entries[$0.slot].id.rawValue }
                seen += ids
                guard let last = ids.last, page.hasMore else { break }
                query.after = StationID(last)
            }
            #expect(seen == expected, "\(path)")
        }
    }

    @Test func theBoundIsTheFirstSlotWithAGreaterId() {
        let snapshot = Self.index.snapshot
        #expect(snapshot.firstSlot(after: 0) == 0)
        #expect(snapshot.firstSlot(after: 1) == 1)
        #expect(snapshot.firstSlot(after: 60) == snapshot.entries.count)
        #expect(snapshot.firstSlot(after: 1_000) == snapshot.entries.count)
        for slot in snapshot.entries.indices {
            #expect(snapshot.firstSlot(after: snapshot.entries[slot].id) == slot + 1)
        }
    }
}
