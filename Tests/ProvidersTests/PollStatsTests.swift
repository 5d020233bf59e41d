import Foundation
import Fuel
import Testing
@testable import Providers

@Suite struct PollStatsTests {
    @Test func eachStepIsCountedByProviderAndOutcome() async throws {
        let fake = try FakeProvider().start()
        defer { fake.stop() }
        let harness = PollerHarness(fake)
        let poller = harness.nsw()
        let group = PollerGroup(pollers: [poller], sink: harness.sink, log: PollLog { _, _ in })
        var failures = 0
        _ = await group.step(poller, failures: &failures)
        _ = await group.step(poller, failures: &failures)
        fake.set(NSWPoller.deltaPath, .status(500))
        _ = await group.step(poller, failures: &failures)
        let nsw = try #require(group.stats.snapshot[.nsw])
        #expect(nsw.outcomes == [.ok: 2, .failed: 1])
        #expect(nsw.polls == 3)
        #expect(nsw.durationSeconds >= 0)
        #expect(group.stats.snapshot.count == 1)
    }
}
