import API
import Foundation
import Fuel

/// The whole dataset as one binary body for followers: the binary snapshot, then registry, history and the sync
/// change log as JSON, then the station price history (`StationHistoryCodec`). The log is the leader's, so a cursor
/// one node issued is valid on every node.
///
/// Sealed (`DatasetWire.sealedContentType`, what followers ask for): the same body ending in a checksum line over every byte
/// before it (`FileSeal`), verified before anything is decoded, so a flipped bit on the way is refused, never served.
/// A leader serves the unsealed form to a follower that does not ask for the sealed one (a follower from before
/// checksums), and a follower refuses an unsealed body: upgrade the leader before the followers, or together.
enum ReplicationPayload: DatasetPayload {
    static let magic: [UInt8] = Array("PTYREPL1".utf8)

    static func encodeSealed(_ dataset: Dataset) throws -> [UInt8] { FileSeal.seal(try encode(dataset)) }

    /// The checksum of a sealed body (its last line's digits), for a pointer to it.
    static func checksum(ofSealed body: [UInt8]) -> String {
        String(decoding: body.suffix(17).dropLast(), as: UTF8.self)
    }

    /// Verifies a sealed body's checksum, then decodes it.
    static func open(_ body: [UInt8]) throws(DatasetRefusal) -> Dataset {
        let payload: [UInt8]
        switch FileSeal.open(body) {
        case .verified(let verified): payload = verified
        case .unsealed: throw DatasetRefusal(.checksum, "no checksum: the leader sends unchecked datasets (upgrade the leader first)")
        case .mismatch: throw DatasetRefusal(.checksum, "checksum mismatch: the dataset was damaged on the way")
        }
        do { return try decode(payload) } catch {
            throw DatasetRefusal(.malformed, "undecodable dataset: \(DataDirectory.summary(error))")
        }
    }

    static func encode(_ dataset: Dataset) throws -> [UInt8] {
        var out = ByteWriter()
        out.bytes.append(contentsOf: magic)
        out.blob(try SnapshotCodec.encode(dataset.snapshot))
        out.blob(Array(try StoredJSON.encoder.encode(dataset.registry)))
        out.blob(Array(try StoredJSON.encoder.encode(dataset.history)))
        out.blob(Array(try StoredJSON.encoder.encode(dataset.changes)))
        out.blob(StationHistoryCodec.encode(dataset.stationHistory))
        return out.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> Dataset {
        var input = ByteReader(bytes: bytes)
        guard try input.take(magic.count) == magic[...] else {
            throw SnapshotCodec.Malformed(description: "not a Petty dataset (bad magic)")
        }
        let snapshot = try SnapshotCodec.decode(Array(try input.blob()))
        let registry = try StoredJSON.decoder.decode(StationRegistry.self, from: Data(try input.blob()))
        let history = try StoredJSON.decoder.decode(History.self, from: Data(try input.blob()))
        // A leader from before the log sends none: the follower's sync starts after the snapshot.
        var changes: ChangeLog?
        if !input.isAtEnd {
            let log = try StoredJSON.decoder.decode(ChangeLog.self, from: Data(try input.blob()))
            try LoadLimits.check(log)
            changes = log
        }
        let stationHistory = input.isAtEnd ? StationHistory() : try StationHistoryCodec.decode(Array(try input.blob()))
        guard input.isAtEnd else { throw SnapshotCodec.Malformed(description: "trailing bytes") }
        return Dataset(
            snapshot: snapshot, registry: registry.reconciled(with: snapshot), history: history, changes: changes,
            stationHistory: stationHistory)
    }
}
