import Foundation
import Testing

@testable import Fuel

@Suite struct CorridorIndexTests {
    /// 1,500 stations over a patch around Sydney, a fifth of them sharing one spot.
    func index() -> FuelIndex {
        var generator = SeededGenerator(seed: 11)
        let ids = (1...1_500).map(String.init)
        let stations = ids.map { id in
            let number = Int(id)!
            let latitude = number % 5 == 0 ? -33.85 : Double.random(in: -34.3 ... -33.4, using: &generator)
            let longitude = number % 5 == 0 ? 151.2 : Double.random(in: 150.6...151.4, using: &generator)
            return Fixture.station(.nsw, id, latitude: latitude, longitude: longitude)
        }
        let update = ProviderUpdate(provider: .nsw, stations: stations, prices: ids.map { Fixture.price(.nsw, $0, 1_800) }, asOf: Fixture.now)
        return FuelIndex(snapshot: Fixture.merge(update).snapshot)
    }

    @Test func aBoxVisitsExactlyTheStationsItContains() throws {
        let index = index()
        let locations = index.snapshot.entries.map(\.station.location)
        #expect(locations.count == 1_500)
        var generator = SeededGenerator(seed: 5)
        var boxes = [try BoundingBox(minLat: -33.85, minLng: 151.2, maxLat: -33.85, maxLng: 151.2),  // one spot, edges count
                     try BoundingBox(minLat: -35, minLng: 150, maxLat: -33, maxLng: 152),  // everything valid
                     try BoundingBox(minLat: -10, minLng: 120, maxLat: -9, maxLng: 121)]  // nothing
        for _ in 0..<200 {
            let lat = Double.random(in: -34.4 ... -33.3, using: &generator), lng = Double.random(in: 150.5...151.5, using: &generator)
            boxes.append(try BoundingBox(
                minLat: lat, minLng: lng, maxLat: lat + Double.random(in: 0...0.2, using: &generator),
                maxLng: lng + Double.random(in: 0...0.2, using: &generator)))
        }
        var visited = 0
        for box in boxes {
            var slots: [Int] = []
            index.corridors.forEach(in: box) { slot, location, cosLatitude in
                slots.append(slot)
                #expect(location == locations[slot] && cosLatitude == locations[slot].cosLatitude)
            }
            let expected = locations.indices.filter { locations[$0].isValid && box.contains(locations[$0]) }
            #expect(slots.sorted() == expected, "\(box)")
            visited += slots.count
        }
        #expect(visited > 1_000)
        var all: [Int] = []
        index.corridors.forEach(in: boxes[1]) { slot, _, _ in all.append(slot) }
        #expect(all.count == locations.filter(\.isValid).count)
    }

    /// A route's boxes in turn, each strip's search starting where the last box's ended: every box still visits
    /// exactly what it contains, whether the walk moves north or south, stays put, or jumps (stale hints, strips
    /// sharing a hint slot), and boxes past either end of a strip.
    @Test func neighbouringBoxesSharingHintsVisitExactlyWhatEachContains() throws {
        let index = index()
        let locations = index.snapshot.entries.map(\.station.location)
        var generator = SeededGenerator(seed: 21)
        var hints = CorridorIndex.StripHints()
        var lat = -34.2, lng = 150.7
        var visited = 0, previous: BoundingBox?
        for step in 0..<1_500 {
            let box: BoundingBox
            if step % 7 == 3, let previous {
                box = previous
            } else {
                if step % 60 == 0 {
                    lat = Double.random(in: -34.6 ... -33.2, using: &generator)
                    lng = Double.random(in: 150.4...151.6, using: &generator)
                } else {
                    lat += Double.random(in: -0.03...0.03, using: &generator)
                    lng += Double.random(in: -0.03...0.03, using: &generator)
                }
                box = try BoundingBox(
                    minLat: lat, minLng: lng, maxLat: lat + Double.random(in: 0...0.06, using: &generator),
                    maxLng: lng + Double.random(in: 0...0.06, using: &generator))
            }
            previous = box
            var slots: [Int] = []
            index.corridors.forEach(in: box, hints: &hints) { slot, _, _ in slots.append(slot) }
            let expected = locations.indices.filter { locations[$0].isValid && box.contains(locations[$0]) }
            #expect(slots.sorted() == expected, "step \(step): \(box)")
            visited += slots.count
        }
        #expect(visited > 1_000)
    }

    /// A subset visits, box by box, exactly the stations of the whole index it keeps, and is made once per key.
    @Test func aSubsetVisitsExactlyTheStationsItKeeps() throws {
        let index = index()
        var generator = SeededGenerator(seed: 8)
        var asked = 0
        let odd = index.corridors.subset(1) { slot in
            asked += 1
            return slot % 2 == 1
        }
        #expect(asked == 1_500)
        _ = index.corridors.subset(1) { _ in
            asked += 1
            return true
        }
        #expect(asked == 1_500, "the second asking reuses the first subset")
        let none = index.corridors.subset(2) { _ in false }
        for _ in 0..<200 {
            let lat = Double.random(in: -34.4 ... -33.3, using: &generator), lng = Double.random(in: 150.5...151.5, using: &generator)
            let box = try BoundingBox(
                minLat: lat, minLng: lng, maxLat: lat + Double.random(in: 0...0.3, using: &generator),
                maxLng: lng + Double.random(in: 0...0.3, using: &generator))
            var whole: [Int] = [], kept: [Int] = [], nothing: [Int] = []
            index.corridors.forEach(in: box) { slot, _, _ in whole.append(slot) }
            odd.forEach(in: box) { slot, location, cosLatitude in
                kept.append(slot)
                #expect(location == index.snapshot.entries[slot].station.location && cosLatitude == location.cosLatitude)
            }
            none.forEach(in: box) { slot, _, _ in nothing.append(slot) }
            #expect(kept.sorted() == whole.filter { $0 % 2 == 1 }.sorted(), "\(box)")
            #expect(nothing.isEmpty)
        }
    }
}
