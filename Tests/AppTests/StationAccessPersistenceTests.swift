import Foundation
import Fuel
import Testing
@testable import API
@testable import App

@Suite struct StationAccessPersistenceTests {
    @Test func hoursAndFlagsSurviveTheSnapshotFile() throws {
        let snapshot = AppTestSupport.sampleDataset.snapshot
        let withAccess = snapshot.entries.filter { $0.station.access != nil }
        #expect(withAccess.count > 400)  // 428 VIC stations with hours, 80 WA sites with flags
        #expect(withAccess.contains { $0.station.access?.hours != nil } && withAccess.contains { $0.station.access?.closedNow != nil })
        let decoded = try SnapshotCodec.decode(try SnapshotCodec.encode(snapshot))
        #expect(decoded.entries == snapshot.entries)
    }

    @Test func storedHoursOutOfRangeAreRefused() throws {
        let bad = #"{"days":[{"open":{"from":0,"to":2000}},"#
        #expect(throws: (any Error).self) { try JSONDecoder().decode(WeeklyHours.self, from: Data((bad + #"{"closed":{}}]}"#).utf8)) }
    }
}
