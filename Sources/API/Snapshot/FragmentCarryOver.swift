import Foundation
import Fuel
import HTTP
import Synchronization

/// The last render's station JSON, kept with the snapshot it came from (holding its entries keeps the identity check
/// sound: a live buffer's address cannot be reused by another array).
package final class FragmentCarryOver: Sendable {
    package init() {}

    // @unchecked: the arrays are immutable values once stored; only the Mutex around the memo changes it.
    struct Memo: @unchecked Sendable {
        /// The snapshot rendered: its entries, and its id -> slot table for reuse station by station.
        var snapshot: Snapshot
        var sources: [ProviderID: DataSource]
        var marks: [UInt32]
        /// `FuelIndex.averagesHash` by state ordinal.
        var averages: [Int]
        var fragments: [[UInt8]]
        var hashes: [FNV1a]

        /// The slot of the last render whose fragment `entry` may reuse (same entry, source, price flags and
        /// state averages), or nil.
        func reusableSlot(for entry: StationEntry, source: DataSource?, marks: UInt32, averages: Int) -> Int? {
            guard let slot = snapshot.slot(of: entry.id), snapshot.entries[slot] == entry, self.marks[slot] == marks,
                self.averages[AustralianState.allCases.firstIndex(of: entry.station.state)!] == averages, sources[entry.station.provider] == source
            else { return nil }
            return slot
        }
    }

    private let last = Mutex<Memo?>(nil)

    func fragments(
        for entries: [StationEntry], sources: [ProviderID: DataSource], marks: [UInt32], averages: [Int]
    ) -> (fragments: [[UInt8]], hashes: [FNV1a])? {
        last.withLock { memo in
            guard let memo, memo.sources == sources, memo.marks == marks, memo.averages == averages,
                Self.sameStorage(memo.snapshot.entries, entries)
            else { return nil }
            return (memo.fragments, memo.hashes)
        }
    }

    /// The last render, for reuse station by station (`Memo.reusableSlot`).
    func previous() -> Memo? { last.withLock { $0 } }

    func remember(
        snapshot: Snapshot, sources: [ProviderID: DataSource], marks: [UInt32], averages: [Int], fragments: [[UInt8]], hashes: [FNV1a]
    ) {
        last.withLock { $0 = Memo(snapshot: snapshot, sources: sources, marks: marks, averages: averages, fragments: fragments, hashes: hashes) }
    }

    static func sameStorage(_ a: [StationEntry], _ b: [StationEntry]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }
}
