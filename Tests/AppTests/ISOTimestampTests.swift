import Foundation
import Testing
@testable import API
@testable import App

@Suite struct ISOTimestampTests {
    @Test(arguments: [
        ("2026-01-14T22:51:45Z", 1_768_431_105.0), ("2026-01-14T22:51:45.5Z", 1_768_431_105.5),
        ("2026-01-15T09:51:45+11:00", 1_768_431_105.0), ("2026-01-14", 1_768_348_800.0), ("2024-02-29T00:00:00Z", 1_709_164_800.0),
    ])
    func validInstantsParse(text: String, epoch: Double) throws {
        #expect(ISOTimestamp.parse(text)?.timeIntervalSince1970 == epoch)
    }

    @Test(arguments: ["2026-01-14T25:00:00Z", "2026-01-14T10:30:00", "2026-01-14garbage", "2026-02-30", "2025-02-29", "14/01/2026", "", "2026-01-14T10:30:00.Z", "2026-01-14T10:30:00+1100"])
    func invalidInstantsAreRejected(text: String) {
        #expect(ISOTimestamp.parse(text) == nil)
    }

    @Test func formattingRoundTrips() throws {
        let date = Date(timeIntervalSince1970: 1_768_431_105)
        #expect(ISOTimestamp.string(date) == "2026-01-14T22:51:45Z")
        #expect(ISOTimestamp.parse(ISOTimestamp.string(date)) == date)
    }
}
