import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// The change log survives a restart bit for bit, so a client's cursor keeps working; a restart that lost it (or
/// found it beside another snapshot) refuses every earlier cursor with 410 instead of silently missing removals.
@Suite struct ChangeLogPersistenceTests {
    /// The small sample with one station delisted and one fuel dropped, merged at `now`.
    static func datasetWithRemovals() -> (Dataset, before: ChangeCursor) {
        let base = PersistenceTestSupport.smallDataset
        let now = (base.snapshot.changedAt ?? Date()) + 3_600
        let before = ChangeFeed(index: FuelIndex(snapshot: base.snapshot), log: base.changes).end
        var entries = base.snapshot.entries
        let gone = entries.removeLast()
        entries[0].prices.removeLast()
        let next = Snapshot(version: base.snapshot.version + 1, changedAt: now, entries: entries, statuses: base.snapshot.statuses)
        var dataset = base
        dataset.changes = base.changes.recording(from: base.snapshot, to: next, at: now)
        dataset.snapshot = next
        #expect(dataset.changes.removals.contains { $0.station == gone.id && $0.fuel == nil })
        return (dataset, before)
    }

    @Test func aRestartKeepsTheLogAndTheCursorsItIssued() throws {
        let (dataset, before) = Self.datasetWithRemovals()
        let directory = DataDirectory(path: AppTestSupport.temporaryDirectory(), logger: AppTestSupport.quietLogger())
        try directory.save(dataset)
        let loaded = directory.load()
        #expect(loaded.problems.isEmpty)
        #expect(loaded.dataset.changes == dataset.changes)

        let app = try AppTestSupport.app(with: loaded.dataset)
        let response = try app.test(.GET, "/v1/prices/changes?cursor=\(before.token)")
        #expect(response.status == .ok)
        let items = try AppTestSupport.list(response).data
        #expect(items.filter { $0["removed"] as? Bool == true }.count == 2, "the dropped fuel and the delisted station")
    }

    @Test func aRestartThatLostTheLogRefusesEarlierCursors() throws {
        let (dataset, before) = Self.datasetWithRemovals()
        let directory = DataDirectory(path: AppTestSupport.temporaryDirectory(), logger: AppTestSupport.quietLogger())
        try directory.save(dataset)
        try FileManager.default.removeItem(atPath: directory.url(.changes))
        let app = try AppTestSupport.app(with: directory.load().dataset)
        let refused = try app.test(.GET, "/v1/prices/changes?cursor=\(before.token)")
        #expect(refused.status.code == 410)
        #expect(refused.bodyString.contains("\"error\":true"))
        // Its lists hand out a token from after the restart, which works.
        let list = try AppTestSupport.json(try app.test(.GET, "/v1/stations?limit=1"))
        let token = try require((list["meta"] as? [String: Any])?["sync_token"] as? String)
        #expect(try app.test(.GET, "/v1/prices/changes?cursor=\(token)").status == .ok)
        // From the beginning always works: every current station comes as a whole.
        let everything = try AppTestSupport.json(try app.test(.GET, "/v1/prices/changes?limit=5000"))
        let stations = (everything["data"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "station" }
        #expect(stations.count == dataset.snapshot.entries.count)
    }
}
