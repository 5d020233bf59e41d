import Coordination
import Foundation
import Testing
@testable import App

/// When a fleet follower downloads the published dataset: never its own, and not in a loop.
@Suite struct FleetCopyScheduleTests {
    static let own = "http://10.0.0.11:8080/internal/v1/dataset"

    func pointer(version: UInt64, url: String = "http://10.0.0.12:8080/internal/v1/dataset") -> DatasetPointer {
        DatasetPointer(version: version, epoch: 7, url: url, checksum: "fnv1a64:1", asOf: nil)
    }

    /// The deposed leader reading its own older pointer (issue 46 item 4): not one download of itself.
    @Test func aMemberNeverCopiesFromItsOwnURL() {
        let schedule = CopySchedule(ownURL: Self.own, maximumDelay: 10)
        #expect(schedule.decision(for: pointer(version: 3, url: Self.own), at: 0) == .own)
        #expect(schedule.decision(for: pointer(version: 3, url: "http://10.0.0.11/internal/v1/dataset"), at: 0) == .copy, "another port is another member")
        #expect(schedule.decision(for: pointer(version: 3, url: "HTTP://10.0.0.11:8080/internal/v1/dataset"), at: 0) == .own)
    }

    /// A loop of 250 ms rounds for 30 s over a pointer whose download changes nothing: a handful of downloads, not 120.
    @Test func anUnchangedCopyBacksOffUpToALease() {
        var schedule = CopySchedule(ownURL: Self.own, maximumDelay: 10)
        let stale = pointer(version: 3)
        var downloads: [Double] = []
        var now = 0.0
        while now < 30 {
            if schedule.decision(for: stale, at: now) == .copy {
                downloads.append(now)
                schedule.record(.unchanged, for: stale, at: now)
            }
            now += 0.25
        }
        #expect(downloads.count <= 8, "\(downloads)")
        let gaps = zip(downloads.dropFirst(), downloads).map { $0 - $1 }
        #expect(gaps.last.map { $0 >= 10 } == true, "the delay grows to a lease: \(gaps)")
        #expect(schedule.decision(for: pointer(version: 4), at: now) == .copy, "a new pointer is due at once")
    }

    @Test func aRefusedPointerIsNotFetchedAgainButTheNextIs() {
        var schedule = CopySchedule(ownURL: Self.own, maximumDelay: 10)
        schedule.record(.refused("no"), for: pointer(version: 3), at: 0)
        #expect(schedule.decision(for: pointer(version: 3), at: 1_000) == .refused)
        #expect(schedule.decision(for: pointer(version: 4), at: 0) == .copy)
    }
}
