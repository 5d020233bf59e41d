import Foundation
import Fuel

/// The whole dataset as one binary body for followers: the binary snapshot, then registry, history and the sync
/// change log as JSON, then the station price history (`StationHistoryCodec`). The log is the leader's, so a cursor
/// one node issued is valid on every node. A payload from a leader older than the log or the station history ends
/// early and still decodes (with none); a follower older than them refuses the extra blobs, so upgrade followers first.
enum ReplicationPayload {
    static let magic: [UInt8] = Array("PTYREPL1".utf8)
    static let contentType = "application/vnd.petty.dataset"

    static func encode(_ dataset: Dataset) throws -> [UInt8] {
        var out = ByteWriter()
        out.bytes.append(contentsOf: magic)
        out.blob(try SnapshotCodec.encode(dataset.snapshot))
        out.blob(Array(try DataDirectory.jsonEncoder().encode(dataset.registry)))
        out.blob(Array(try DataDirectory.jsonEncoder().encode(dataset.history)))
        out.blob(Array(try DataDirectory.jsonEncoder().encode(dataset.changes)))
        out.blob(StationHistoryCodec.encode(dataset.stationHistory))
        return out.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> Dataset {
        var input = ByteReader(bytes: bytes)
        guard try input.take(magic.count) == magic[...] else {
            throw SnapshotCodec.Malformed(description: "not a Petty dataset (bad magic)")
        }
        let snapshot = try SnapshotCodec.decode(Array(try input.blob()))
        let registry = try DataDirectory.jsonDecoder().decode(StationRegistry.self, from: Data(try input.blob()))
        let history = try DataDirectory.jsonDecoder().decode(History.self, from: Data(try input.blob()))
        // A leader from before the log sends none: the follower's sync starts after the snapshot.
        var changes: ChangeLog?
        if !input.isAtEnd {
            let log = try DataDirectory.jsonDecoder().decode(ChangeLog.self, from: Data(try input.blob()))
            try LoadLimits.check(log)
            changes = log
        }
        let stationHistory = input.isAtEnd ? StationHistory() : try StationHistoryCodec.decode(Array(try input.blob()))
        guard input.isAtEnd else { throw SnapshotCodec.Malformed(description: "trailing bytes") }
        return Dataset(
            snapshot: snapshot, registry: registry.reconciled(with: snapshot), history: history, changes: changes,
            stationHistory: stationHistory)
    }

    /// One validator per published dataset, shared by the leader and every follower that copied it.
    static func etag(_ snapshot: Snapshot) -> String {
        "\"dataset-\(snapshot.version)-\(Int((snapshot.changedAt ?? .distantPast).timeIntervalSince1970))\""
    }
}
