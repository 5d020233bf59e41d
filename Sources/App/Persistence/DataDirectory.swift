import Foundation
import Fuel
import HTTP

/// The store on disk: snapshot, station-id registry, history and the sync change log, one file each, each written atomically and sealed
/// with a checksum (`FileSeal`). Reading never fails the start: a missing file is a fresh start; a file whose checksum
/// or values (`LoadLimits`) are wrong is moved aside, logged and listed in `problems` (shown by `/health`).
/// Files written before checksums (no trailer) still load, validated value by value, until the directory has been
/// written with checksums (`DataDirectory+Format`); then a file without one is refused. The highest station id ever
/// issued is kept in `snapshot.bin`, `changes.json` and `registry.json`, so any one of them keeps ids from repeating.
struct DataDirectory: Sendable {
    let path: String
    let logger: Logger
    /// Set for inspection (`Run data check`): a damaged file is reported but left where it is.
    var readOnly = false

    enum File: String, CaseIterable {
        case snapshot = "snapshot.bin"
        case registry = "registry.json"
        case history = "history.json"
        case changes = "changes.json"
        case stationHistory = "station-history.bin"
    }

    /// A JSON snapshot (as `Run export` prints it) is imported when no binary snapshot exists.
    static let importableSnapshot = "snapshot.json"

    func url(_ file: File) -> String { (path as NSString).appendingPathComponent(file.rawValue) }

    func prepare() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Larger files are refused before reading: a sample snapshot is about 1.3 MB.
    static let maxFileBytes = 512 << 20

    struct Loaded {
        var dataset: Dataset
        var hadSnapshot: Bool
        var problems: [String]
    }

    struct Corrupt: Error, CustomStringConvertible {
        let description: String
    }

    func load() -> Loaded {
        var problems: [String] = []
        let present = File.allCases.filter { FileManager.default.fileExists(atPath: url($0)) }
        let sealed = isSealedFormat(present)
        let marked = readSnapshot(problems: &problems, sealed: sealed)
        let registry: StationRegistry? = read(.registry, sealed: sealed, problems: &problems, validate: LoadLimits.check)
        let history: History? = read(.history, sealed: sealed, problems: &problems, validate: LoadLimits.check)
        let changes: MarkedChangeLog? = read(.changes, sealed: sealed, problems: &problems, validate: LoadLimits.check)
        let stationHistory = read(url(.stationHistory), sealed: sealed, problems: &problems) { try StationHistoryCodec.decode($0) }
        let resolvedSnapshot = marked?.snapshot ?? .empty
        // The snapshot's own ids are authoritative; the registry adds ids of stations not currently listed.
        let repaired = (registry ?? StationRegistry()).repaired(against: resolvedSnapshot)
        var resolvedRegistry = repaired.registry
        let dropped = repaired.dropped
        if dropped > 0 {
            let message = "registry.json: \(dropped) assignments contradicted snapshot.bin (an older registry); the snapshot's ids win"
            logger.warning("data: \(message)")
            problems.append(message)
        }
        // The high-water mark lives in three files: whichever survive, no id at or below it is issued again.
        resolvedRegistry.raiseMark(to: max(marked?.idMark ?? 0, changes?.highestID ?? 0))
        if registry == nil, !present.isEmpty {
            let why = present.contains(.registry) ? "was refused" : "is missing"
            let message = "registry.json \(why): station ids continue above \(resolvedRegistry.lastAssigned), the highest ever issued "
                + "according to the other data files"
            logger.error("data: \(message)")
            problems.append(message)
        }
        if present.isEmpty, let remnant = remnantOfEarlierRun() {
            let message = "every data file is gone from \(path) (\(remnant) shows it held data before): starting with no data "
                + "and no id history, so station ids restart at 1 and may repeat ids already shared; restore the files from a backup"
            logger.error("data: DATA LOST: \(message)")
            problems.append(message)
        }
        return Loaded(
            dataset: Dataset(
                snapshot: resolvedSnapshot, registry: resolvedRegistry, history: history ?? History(), changes: changes?.log,
                stationHistory: stationHistory ?? StationHistory()),
            hadSnapshot: marked.map { !$0.snapshot.entries.isEmpty } ?? false,
            problems: problems)
    }

    /// Writes every file (re-creating the directory if it was deleted) and returns what they are on disk now.
    /// The registry goes first: beside an older snapshot a newer registry only knows more ids, never fewer.
    @discardableResult
    func save(_ dataset: Dataset) throws -> [FileIdentity] {
        try prepare()
        let encoder = StoredJSON.encoder
        let idMark = dataset.registry.lastAssigned
        try AtomicFile.write(FileSeal.seal(Array(try encoder.encode(dataset.registry))), to: url(.registry))
        let (snapshot, dropped) = SnapshotCodec.persistable(dataset.snapshot)
        if dropped > 0 { logger.warning("data: \(dropped) stations or prices hold values a load would refuse; not saved") }
        try AtomicFile.write(FileSeal.seal(try SnapshotCodec.encode(snapshot, idMark: idMark)), to: url(.snapshot))
        try AtomicFile.write(FileSeal.seal(Array(try encoder.encode(dataset.history))), to: url(.history))
        // After the snapshot: a log saved beside another snapshot version is not trusted (`ChangeLog.describes`).
        let changes = MarkedChangeLog(log: dataset.changes, idMark: idMark)
        try AtomicFile.write(FileSeal.seal(Array(try encoder.encode(changes))), to: url(.changes))
        try AtomicFile.write(FileSeal.seal(StationHistoryCodec.encode(dataset.stationHistory)), to: url(.stationHistory))
        try markSealedFormat()
        return File.allCases.map { FileIdentity(path: url($0)) }
    }

    /// Whether the files are still the ones `save` returned (not deleted, replaced or truncated behind our back).
    func holds(_ saved: [FileIdentity]) -> Bool {
        saved.allSatisfy { $0.exists && FileIdentity(path: $0.path) == $0 }
    }

    private func readSnapshot(problems: inout [String], sealed: Bool) -> (snapshot: Snapshot, idMark: Int)? {
        let binary = url(.snapshot)
        if FileManager.default.fileExists(atPath: binary) {
            return read(binary, sealed: sealed, problems: &problems) { bytes in try SnapshotCodec.decodeMarked(bytes) }
        }
        let json = (path as NSString).appendingPathComponent(Self.importableSnapshot)
        guard FileManager.default.fileExists(atPath: json) else { return nil }
        logger.notice("data: importing \(json)")
        // Written by hand or by `Run export`, never sealed.
        return read(json, sealed: false, problems: &problems) { bytes in
            let snapshot = try StoredJSON.decoder.decode(Snapshot.self, from: Data(bytes))
            // The binary form carries every check; a round trip through it validates an imported file too.
            return (try SnapshotCodec.decode(try SnapshotCodec.encode(snapshot)), 0)
        }
    }

    private func read<T: Decodable>(_ file: File, sealed: Bool, problems: inout [String], validate: (T) throws -> Void) -> T? {
        read(url(file), sealed: sealed, problems: &problems) { bytes in
            let value = try StoredJSON.decoder.decode(T.self, from: Data(bytes))
            try validate(value)
            return value
        }
    }

    /// With `sealed` (the directory has been written in the checksummed format), a file without its checksum line
    /// is refused like a damaged one: the line was removed, not never written.
    private func read<T>(_ path: String, sealed: Bool, problems: inout [String], decode: ([UInt8]) throws -> T) -> T? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            let size = FileIdentity(path: path).size
            guard size <= Self.maxFileBytes else { throw Corrupt(description: "\(size) bytes, more than any data file can be") }
            guard let data = FileManager.default.contents(atPath: path) else { throw CocoaError(.fileReadUnknown) }
            switch FileSeal.open(Array(data)) {
            case .verified(let payload): return try decode(payload)
            case .unsealed(let payload):
                guard !sealed else { throw Corrupt(description: "no checksum line, though this directory is written with checksums") }
                return try decode(payload)
            case .mismatch: throw Corrupt(description: "checksum mismatch")
            }
        } catch {
            let name = (path as NSString).lastPathComponent
            var message = "\(name) is unreadable (\(Self.summary(error)))"
            if !readOnly {
                let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
                try? FileManager.default.moveItem(atPath: path, toPath: aside)
                message += "; moved aside to \(aside)"
            }
            logger.error("data: \(message)")
            problems.append(message)
            return nil
        }
    }

    static func summary(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): "corrupt: \(context.debugDescription)"
        case DecodingError.keyNotFound(let key, _): "missing key \(key.stringValue)"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            "bad value at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: "\(error)"
        }
    }
}
