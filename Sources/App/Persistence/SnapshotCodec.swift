import Foundation
import Fuel

/// A compact binary form of the snapshot: loading 8,000 stations from JSON took most of the start-up budget,
/// this takes a few milliseconds. Statuses (a handful) stay JSON inside it. Any malformation, and any value
/// outside `LoadLimits`, throws; counts are checked before anything is allocated for them.
enum SnapshotCodec {
    /// Version 2 adds each station's `access` (hours and flags); version 1 files still load, without it.
    static let magic: [UInt8] = Array("PTYSNAP2".utf8)
    static let magicV1: [UInt8] = Array("PTYSNAP1".utf8)
    /// Version 3 is version 2 plus the id high-water mark after `changedAt` (`snapshot.bin` only: the replication
    /// payload carries the registry and keeps version 2).
    static let magicV3: [UInt8] = Array("PTYSNAP3".utf8)
    /// Any version may end with this section: the stations' tomorrow-only prices (a WA site closed today). Written only
    /// when there are some, so a snapshot without them keeps its bytes, and files written before it still load.
    static let tomorrowOnlyTag: [UInt8] = Array("TMRW".utf8)

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// With `idMark`, the version 3 form that also records the highest station id ever issued.
    static func encode(_ snapshot: Snapshot, idMark: Int? = nil) throws -> [UInt8] {
        var out = ByteWriter()
        out.bytes.reserveCapacity(snapshot.entries.count * 400)
        out.bytes.append(contentsOf: idMark == nil ? magic : magicV3)
        out.u64(snapshot.version)
        out.optionalDate(snapshot.changedAt)
        if let idMark { out.u64(UInt64(max(0, idMark))) }
        let encoder = StoredJSON.encoder
        out.blob(Array(try encoder.encode(snapshot.statuses)))
        out.u32(UInt32(snapshot.entries.count))
        for entry in snapshot.entries { try encode(entry, into: &out, encoder: encoder) }
        encodeTomorrowOnly(snapshot.entries, into: &out)
        return out.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> Snapshot { try decodeMarked(bytes).snapshot }

    /// The snapshot and the id high-water mark it records (0 for versions 1 and 2, which record none).
    static func decodeMarked(_ bytes: [UInt8]) throws -> (snapshot: Snapshot, idMark: Int) {
        var input = ByteReader(bytes: bytes)
        let header = try input.take(magic.count)
        guard header == magic[...] || header == magicV1[...] || header == magicV3[...] else {
            throw Malformed(description: "not a Petty snapshot (bad magic)")
        }
        let hasAccess = header != magicV1[...]
        let version = try input.u64()
        let changedAt = try input.optionalDate()
        var idMark = 0
        if header == magicV3[...] {
            let raw = try input.u64()
            guard raw <= UInt64(LoadLimits.maxStationID) else { throw Malformed(description: "implausible id mark \(raw)") }
            idMark = Int(raw)
        }
        let decoder = StoredJSON.decoder
        let statuses = try decodeStatuses(&input, decoder: decoder)
        let count = Int(try input.u32())
        guard count <= bytes.count / 16, count <= LoadLimits.maxStations else { throw Malformed(description: "implausible station count \(count)") }
        var entries: [StationEntry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count { entries.append(try decodeEntry(&input, hasAccess: hasAccess, decoder: decoder)) }
        try decodeTomorrowOnly(&input, into: &entries)
        guard input.isAtEnd else { throw Malformed(description: "trailing bytes") }
        guard Set(entries.map(\.id)).count == entries.count, Set(entries.map(\.station.key)).count == entries.count else {
            throw Malformed(description: "duplicate station ids or keys")
        }
        if let changedAt { try LoadLimits.check(instant: changedAt.timeIntervalSince1970, "changedAt") }
        return (Snapshot(version: version, changedAt: changedAt, entries: entries, statuses: statuses), idMark)
    }

    private static func decodeStatuses(_ input: inout ByteReader, decoder: JSONDecoder) throws -> [ProviderStatus] {
        let statusBytes = try input.blob()
        guard statusBytes.count <= LoadLimits.maxStatusesBytes else { throw Malformed(description: "implausible status size") }
        let statuses = try decoder.decode([ProviderStatus].self, from: Data(statusBytes))
        try statuses.forEach(LoadLimits.check)
        guard Set(statuses.map(\.provider)).count == statuses.count else { throw Malformed(description: "duplicate provider status") }
        return statuses
    }
}
