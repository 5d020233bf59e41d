import Foundation
import Fuel
import HTTP
import Synchronization

/// The last render's station JSON, kept with the entries it came from (holding them keeps the identity check
/// sound: a live buffer's address cannot be reused by another array).
package final class FragmentCarryOver: Sendable {
    package init() {}

    // @unchecked: the arrays are immutable values once stored; only the Mutex around the memo changes it.
    struct Memo: @unchecked Sendable {
        var entries: [StationEntry]
        var sources: [ProviderID: DataSource]
        var marks: [UInt32]
        /// `FuelIndex.averagesHash` by state ordinal.
        var averages: [Int]
        var fragments: [[UInt8]]
        var hashes: [FNV1a]
    }

    private let last = Mutex<Memo?>(nil)

    func fragments(
        for entries: [StationEntry], sources: [ProviderID: DataSource], marks: [UInt32], averages: [Int]
    ) -> (fragments: [[UInt8]], hashes: [FNV1a])? {
        last.withLock { memo in
            guard let memo, memo.sources == sources, memo.marks == marks, memo.averages == averages, Self.sameStorage(memo.entries, entries)
            else { return nil }
            return (memo.fragments, memo.hashes)
        }
    }

    /// The last render per station id, for reuse station by station.
    typealias Reusable = (entry: StationEntry, source: DataSource?, marks: UInt32, averages: Int, fragment: [UInt8], hash: FNV1a)

    func byID() -> [StationID: Reusable]? {
        last.withLock { memo in
            guard let memo else { return nil }
            var table: [StationID: Reusable] = [:]
            table.reserveCapacity(memo.entries.count)
            for (slot, entry) in memo.entries.enumerated() {
                table[entry.id] = (
                    entry, memo.sources[entry.station.provider], memo.marks[slot], memo.averages[AustralianState.allCases.firstIndex(of: entry.station.state)!],
                    memo.fragments[slot], memo.hashes[slot]
                )
            }
            return table
        }
    }

    func remember(
        entries: [StationEntry], sources: [ProviderID: DataSource], marks: [UInt32], averages: [Int], fragments: [[UInt8]], hashes: [FNV1a]
    ) {
        last.withLock { $0 = Memo(entries: entries, sources: sources, marks: marks, averages: averages, fragments: fragments, hashes: hashes) }
    }

    static func sameStorage(_ a: [StationEntry], _ b: [StationEntry]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }
}
