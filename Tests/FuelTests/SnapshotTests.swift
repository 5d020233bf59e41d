import Foundation
import Testing

@testable import Fuel

@Suite struct SnapshotTests {
    func sample() -> Dataset {
        var dataset = Dataset()
        (dataset, _) = dataset.merging(Fixture.update(.nsw, count: 3), at: Fixture.now)
        (dataset, _) = dataset.merging(Fixture.update(.wa, count: 2, state: .WA), at: Fixture.now)
        // A provider known without stations (its status only).
        let snapshot = dataset.snapshot
        dataset.snapshot = Snapshot(
            version: snapshot.version + 1, changedAt: Fixture.now, entries: snapshot.entries,
            statuses: snapshot.statuses + [ProviderStatus(provider: .vic, source: .live)])
        return dataset
    }

    @Test func aSnapshotSurvivesEncodingAndDecodingWithItsLookupTable() throws {
        let snapshot = sample().snapshot
        let decoded = try JSONDecoder().decode(Snapshot.self, from: JSONEncoder().encode(snapshot))
        #expect(decoded == snapshot)
        #expect(decoded[4]?.station.key == Fixture.key(.wa, "1"))
        #expect(decoded.status(of: .vic)?.source == .live)
    }

    @Test func aDatasetSurvivesEncodingAndDecoding() throws {
        let dataset = sample()
        let decoded = try JSONDecoder().decode(Dataset.self, from: JSONEncoder().encode(dataset))
        #expect(decoded == dataset)
    }

    @Test func decodingRejectsDuplicateStationIds() throws {
        let snapshot = sample().snapshot
        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(snapshot)) as! [String: Any]
        var stations = json["stations"] as! [Any]
        stations.append(stations[0])
        json["stations"] = stations
        let data = try JSONSerialization.data(withJSONObject: json)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Snapshot.self, from: data) }
    }

    @Test func versionsIncreaseWithEveryChange() {
        let snapshot = sample().snapshot
        #expect(snapshot.version == 3)
        let rejected = snapshot.merging(ProviderUpdate(provider: .nsw, stations: [], prices: [], asOf: Fixture.now), registry: sample().registry, at: Fixture.now)
        #expect(rejected.snapshot.version == 3, "a rejected feed is no change")
    }

    @Test func statusesAreSortedByProvider() {
        #expect(sample().snapshot.statuses.map(\.provider) == [.nsw, .wa, .vic])
    }

    @Test func aDatasetRestoredWithoutItsRegistryKeepsStationIds() {
        let snapshot = sample().snapshot
        var dataset = Dataset(snapshot: snapshot)
        (dataset, _) = dataset.merging(Fixture.update(.wa, count: 3, state: .WA), at: Fixture.now)
        #expect(dataset.snapshot[4]?.station.key == Fixture.key(.wa, "1"))
        #expect(dataset.snapshot[6]?.station.key == Fixture.key(.wa, "3"))
    }
}
