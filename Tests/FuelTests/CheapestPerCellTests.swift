import Foundation
import Testing
@testable import Fuel

/// `CheapestPerCell`: map pins spread over the area, the cheapest of each occupied cell, deterministic.
@Suite struct CheapestPerCellTests {
    typealias Pin = CheapestPerCell.Pin

    /// A 50 x 50 grid of stations over a state-sized box (-38..-28, 141..153), ids row by row from the south-west,
    /// so the first 500 ids are the southernmost tenth of the box; prices vary deterministically.
    static func stateGrid() -> [Pin] {
        (0..<2_500).map { n in
            let (row, column) = (n / 50, n % 50)
            let location = Coordinate(latitude: -38 + Double(row) * 0.2 + 0.013, longitude: 141 + Double(column) * 0.24 + 0.017)
            return Pin(id: StationID(n + 1), location: location, tenths: n % 7 == 0 ? nil : 1_700 + (n * 37) % 300)
        }
    }

    @Test func underTheLimitEveryPinComesBackUnchanged() {
        let pins = Array(Self.stateGrid().prefix(500))
        for limit in [500, 501, 5_000] {
            let selection = CheapestPerCell.select(pins, limit: limit)
            #expect(selection.kept == Array(0..<500))
            #expect(!selection.isSampled)
            #expect(selection.cellDegrees == nil)
        }
        #expect(CheapestPerCell.select(pins, limit: 499).isSampled, "one over the limit is sampled")
    }

    @Test func overTheLimitThePinsSpreadEvenlyOverTheArea() throws {
        let pins = Self.stateGrid()
        let selection = CheapestPerCell.select(pins, limit: 500)
        #expect(selection.isSampled)
        #expect(selection.kept.count <= 500)
        #expect(selection.kept.count >= 250, "a grid sized for the limit fills at least half of it, got \(selection.kept.count)")
        // Each quarter of the box holds a fair share, where the first 500 ids would all lie in the south.
        var quarters = [0, 0, 0, 0]
        for index in selection.kept {
            let location = pins[index].location
            quarters[(location.latitude < -33 ? 0 : 2) + (location.longitude < 147 ? 0 : 1)] += 1
        }
        for count in quarters {
            #expect(Double(count) >= 0.15 * Double(selection.kept.count), "quarters \(quarters)")
        }
        #expect(pins.prefix(500).allSatisfy { $0.location.latitude < -36 })
        #expect(selection.kept.contains { pins[$0].location.latitude > -30 }, "the north end has pins")
        #expect(selection.kept == selection.kept.sorted(), "kept pins stay in the query's order")
    }

    @Test func eachOccupiedCellKeepsExactlyItsCheapestPin() throws {
        let pins = Self.stateGrid()
        let selection = CheapestPerCell.select(pins, limit: 300)
        let cell = try #require(selection.cellDegrees)
        let cells = Dictionary(grouping: pins.indices) { CheapestPerCell.CellKey(pins[$0].location, cell: cell) }
        #expect(cells.count == selection.kept.count, "one pin per occupied cell")
        #expect(cells.count <= 300)
        let kept = Set(selection.kept)
        for (_, members) in cells {
            let chosen = members.filter(kept.contains)
            #expect(chosen.count == 1)
            // Brute force: the cheapest by price (priced first), then lowest id.
            let expected = members.min { a, b in
                (pins[a].tenths ?? .max, pins[a].id) < (pins[b].tenths ?? .max, pins[b].id)
            }
            #expect(chosen.first == expected)
        }
        // The next finer cell of the ladder would occupy more than the limit.
        let step = try #require(CheapestPerCell.ladder.firstIndex(of: cell))
        #expect(CheapestPerCell.occupied(pins, cell: CheapestPerCell.ladder[step + 1]) > 300)
    }

    @Test func aPricedPinBeatsAnUnpricedOneAndTiesGoToTheLowerID() {
        let here = Coordinate(latitude: -33.87, longitude: 151.21)
        let far = Coordinate(latitude: -31.95, longitude: 115.86)
        let pins = [
            Pin(id: StationID(9), location: here, tenths: nil),
            Pin(id: StationID(7), location: here, tenths: 1_899),
            Pin(id: StationID(3), location: here, tenths: 1_899),
            Pin(id: StationID(2), location: far, tenths: nil),
            Pin(id: StationID(1), location: far, tenths: nil),
        ]
        let selection = CheapestPerCell.select(pins, limit: 2)
        #expect(selection.kept.map { pins[$0].id } == [StationID(3), StationID(1)])
    }

    @Test func theSameMatchesInAnyOrderGiveTheSamePins() {
        let pins = Self.stateGrid()
        var generator = SeededGenerator(seed: 26)
        let shuffled = pins.shuffled(using: &generator)
        let first = CheapestPerCell.select(pins, limit: 500)
        let second = CheapestPerCell.select(shuffled, limit: 500)
        #expect(first.cellDegrees == second.cellDegrees)
        #expect(Set(first.kept.map { pins[$0].id }) == Set(second.kept.map { shuffled[$0].id }))
        #expect(CheapestPerCell.select(pins, limit: 500) == first)
    }
}
