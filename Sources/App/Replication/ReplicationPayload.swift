import Foundation
import Fuel

/// The whole dataset as one binary body for followers: the binary snapshot, then registry and history as JSON,
/// then the station price history (`StationHistoryCodec`). A payload from a leader older than station history ends
/// after the history and still decodes (with none); a follower older than it refuses the extra blob, so upgrade
/// followers first.
enum ReplicationPayload {
    static let magic: [UInt8] = Array("PTYREPL1".utf8)
    static let contentType = "application/vnd.petty.dataset"

    static func encode(_ dataset: Dataset) throws -> [UInt8] {
        var out = ByteWriter()
        out.bytes.append(contentsOf: magic)
        out.blob(try SnapshotCodec.encode(dataset.snapshot))
        out.blob(Array(try DataDirectory.jsonEncoder().encode(dataset.registry)))
        out.blob(Array(try DataDirectory.jsonEncoder().encode(dataset.history)))
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
        let stationHistory = input.isAtEnd ? StationHistory() : try StationHistoryCodec.decode(Array(try input.blob()))
        guard input.isAtEnd else { throw SnapshotCodec.Malformed(description: "trailing bytes") }
        return Dataset(
            snapshot: snapshot, registry: registry.reconciled(with: snapshot), history: history, stationHistory: stationHistory)
    }

    /// One validator per published dataset, shared by the leader and every follower that copied it.
    static func etag(_ snapshot: Snapshot) -> String {
        "\"dataset-\(snapshot.version)-\(Int((snapshot.changedAt ?? .distantPast).timeIntervalSince1970))\""
    }
}
