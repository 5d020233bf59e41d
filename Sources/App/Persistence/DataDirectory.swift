import Foundation
import Fuel
import HTTP

/// The store on disk: snapshot, station-id registry and history, one file each, each written atomically.
/// Reading never fails the start: a missing file is a fresh start, a corrupt one is moved aside and logged.
struct DataDirectory: Sendable {
    let path: String
    let logger: Logger

    enum File: String, CaseIterable {
        case snapshot = "snapshot.bin"
        case registry = "registry.json"
        case history = "history.json"
    }

    /// A JSON snapshot (as `Run export` prints it) is imported when no binary snapshot exists.
    static let importableSnapshot = "snapshot.json"

    func url(_ file: File) -> String { (path as NSString).appendingPathComponent(file.rawValue) }

    func prepare() throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    struct Loaded {
        var dataset: Dataset
        var hadSnapshot: Bool
        var problems: [String]
    }

    func load() -> Loaded {
        var problems: [String] = []
        let snapshot = readSnapshot(problems: &problems)
        let registry: StationRegistry? = read(.registry, problems: &problems)
        let history: History? = read(.history, problems: &problems)
        let resolvedSnapshot = snapshot ?? .empty
        // The snapshot's own ids are authoritative; the registry adds ids of stations not currently listed.
        let resolvedRegistry = (registry ?? StationRegistry()).reconciled(with: resolvedSnapshot)
        return Loaded(
            dataset: Dataset(snapshot: resolvedSnapshot, registry: resolvedRegistry, history: history ?? History()),
            hadSnapshot: snapshot.map { !$0.entries.isEmpty } ?? false,
            problems: problems)
    }

    func save(_ dataset: Dataset) throws {
        try prepare()
        let encoder = Self.jsonEncoder()
        try AtomicFile.write(try SnapshotCodec.encode(dataset.snapshot), to: url(.snapshot))
        try AtomicFile.write(Array(try encoder.encode(dataset.registry)), to: url(.registry))
        try AtomicFile.write(Array(try encoder.encode(dataset.history)), to: url(.history))
    }

    private func readSnapshot(problems: inout [String]) -> Snapshot? {
        let binary = url(.snapshot)
        if FileManager.default.fileExists(atPath: binary) {
            return read(binary, problems: &problems) { bytes in try SnapshotCodec.decode(Array(bytes)) }
        }
        let json = (path as NSString).appendingPathComponent(Self.importableSnapshot)
        guard FileManager.default.fileExists(atPath: json) else { return nil }
        logger.notice("data: importing \(json)")
        return read(json, problems: &problems) { bytes in try Self.jsonDecoder().decode(Snapshot.self, from: bytes) }
    }

    private func read<T: Decodable>(_ file: File, problems: inout [String]) -> T? {
        read(url(file), problems: &problems) { bytes in try Self.jsonDecoder().decode(T.self, from: bytes) }
    }

    private func read<T>(_ path: String, problems: inout [String], decode: (Data) throws -> T) -> T? {
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            guard let data = FileManager.default.contents(atPath: path) else { throw CocoaError(.fileReadUnknown) }
            return try decode(data)
        } catch {
            let aside = path + ".corrupt-\(Int(Date().timeIntervalSince1970))"
            try? FileManager.default.moveItem(atPath: path, toPath: aside)
            let name = (path as NSString).lastPathComponent
            let message = "\(name) is unreadable (\(Self.summary(error))); moved aside to \(aside)"
            logger.error("data: \(message)")
            problems.append(message)
            return nil
        }
    }

    static func jsonDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }

    static func jsonEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        return encoder
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
