import API
import Coordination
import Foundation
import Fuel
import Synchronization

/// The store as the coordinator sees it: a version, an id mark, and (while leading) the pointer to publish,
/// whose checksum is the 64-bit FNV-1a of the replication body `/internal/v1/dataset` serves for that version.
final class StoreFleetMember: FleetMember {
    let store: any DatasetStore
    /// Where followers download the dataset from.
    let datasetURL: String
    /// The last body checksummed, so an unchanged dataset is not encoded again every round.
    private let lastEncoded = Mutex<(version: UInt64, checksum: String, sha256: String?)?>(nil)
    /// Signs each publication (`PETTY_FLEET_SECRET`); nil: published unsigned.
    let signer: DatasetSignature?

    let clock: @Sendable () -> Date
    /// The generation and the fleet's id mark, persisted in the data directory.
    let marks: FleetMarksFile

    init(
        store: any DatasetStore, advertiseURL: URL, signer: DatasetSignature? = nil, marks: FleetMarksFile = FleetMarksFile(directory: nil),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.signer = signer
        self.clock = clock
        self.marks = marks
        // The mark learnt from the fleet before this start: no id at or below it is issued, whatever etcd now says.
        FleetIDHighWaterMark.raise(store, to: marks.current.ids)
        datasetURL = advertiseURL.appendingPathComponent(DatasetWire.path).absoluteString
    }

    var heldVersion: UInt64 { store.dataset.snapshot.version }

    var holdsLiveData: Bool { Self.isLive(store.dataset.snapshot) }

    static func isLive(_ snapshot: Snapshot) -> Bool {
        snapshot.statuses.contains { $0.source == .live && $0.stationCount > 0 }
    }

    var idMark: Int64 { Int64(store.idMark) }

    func adopt(idMark: Int64) {
        // The registry only raises its mark; the fleet's mark matters once this member issues ids as leader.
        FleetIDHighWaterMark.raise(store, to: idMark)
        marks.raise(ids: idMark)
    }

    var generation: FleetGeneration { marks.generation }

    func persist(_ generation: FleetGeneration) -> Bool { marks.persist(generation) }

    func publication(after published: DatasetPointer?, token: FleetFenceToken) async -> DatasetPointer? {
        let dataset = store.dataset
        let version = dataset.snapshot.version
        if let published, published.token == token, published.version >= version { return nil }
        let checksum: String, sha256: String?
        if let cached = lastEncoded.withLock({ $0 }), cached.version == version {
            (checksum, sha256) = (cached.checksum, cached.sha256)
        } else {
            // Off the coordinator's thread: encoding the whole dataset is the heaviest step of a round.
            let encoded = await withTaskExecutorPreference(globalConcurrentExecutor) { try? ReplicationPayload.encode(dataset) }
            guard let body = encoded else { return nil }
            checksum = Self.checksum(body)
            sha256 = signer == nil ? nil : DatasetSignature.digest(body)
            lastEncoded.withLock { $0 = (version, checksum, sha256) }
        }
        let asOf = dataset.snapshot.statuses.compactMap(\.asOf).max().map(ISOTimestamp.string)
        let stamp = Int64((clock().timeIntervalSince1970 * 1000).rounded())
        var pointer = DatasetPointer(
            version: version, epoch: token.revision, generation: token.generation, url: datasetURL, checksum: checksum, asOf: asOf, publishedMillis: stamp)
        pointer.live = Self.isLive(dataset.snapshot)
        guard let signer, let sha256 else { return pointer }
        return signer.signed(pointer, sha256: sha256)
    }

    static func checksum(_ body: [UInt8]) -> String {
        var hash = FNV1a()
        hash.combine(body)
        return "fnv1a64:" + String(hash.value, radix: 16)
    }
}
