import Testing
@testable import App

/// The trust rules at the size limit: a dataset of as many stations as `DatasetValidation` lets through is still
/// refused for growth, and the healthy leader's next dataset is followed. A long scenario: building and checking
/// 100,000 stations takes seconds of CPU in a debug build; `FollowerTrustRulesTests` checks the rule at 2,050.
@Suite(.longScenario) struct FollowerLargestDatasetTests {
    /// Offered decoded: some 20 MB encoded, too slow to send through a debug build.
    @Test func aHundredThousandStationDatasetIsRefused() {
        let rules = FollowerTrustRulesTests()
        let huge = FollowerTrustRulesTests.grown(by: DatasetValidation.maxStations - FollowerTrustRulesTests.held.snapshot.stationCount, version: 150)
        #expect(huge.snapshot.stationCount == 100_000)
        rules.expectRefusedThenRecovered(huge, .growth, saying: "implausible growth: nsw: ")
        #expect(rules.offered(huge).follower.lastError.contains(" stations, 50 held (at most 25 new at once)"))
    }
}
