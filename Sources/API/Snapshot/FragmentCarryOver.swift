import Foundation
import Fuel
import HTTP
import Synchronization

/// The last render's station JSON (each list fragment, and the detail body it is a slice of), kept with the snapshot
/// it came from (holding its entries keeps the identity check sound: a live buffer's address cannot be reused by
/// another array).
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
        var fragments: [ArraySlice<UInt8>]
        var hashes: [FNV1a]
        /// By slot: the detail body, and the `open_now` byte it was written with.
        var bodies: [[UInt8]]
        var openNow: [UInt8]
        /// By state ordinal: `DataMeta.fields` of the detail meta the bodies carry.
        var detailMetaFields: [[UInt8]]

        /// The body of `slot` when it was written with this `openNow` byte (the caller checks the detail meta).
        func body(of slot: Int, openNow: UInt8) -> [UInt8]? {
            self.openNow[slot] == openNow ? bodies[slot] : nil
        }

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

    /// The last render when it was of these very entries, with the same sources, price flags and averages: every
    /// slot's JSON is reusable as it stands.
    func unchanged(
        for entries: [StationEntry], sources: [ProviderID: DataSource], marks: [UInt32], averages: [Int]
    ) -> Memo? {
        last.withLock { memo in
            guard let memo, memo.sources == sources, memo.marks == marks, memo.averages == averages,
                Self.sameStorage(memo.snapshot.entries, entries)
            else { return nil }
            return memo
        }
    }

    /// The last render, for reuse station by station (`Memo.reusableSlot`).
    func previous() -> Memo? { last.withLock { $0 } }

    func remember(_ memo: Memo) {
        last.withLock { $0 = memo }
    }

    static func sameStorage(_ a: [StationEntry], _ b: [StationEntry]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }
}
