import API
import Foundation

/// `Run data copy FROM TO`: copies a whole data directory (every data file and the format record, byte for byte,
/// each written atomically) for a move to another directory or machine. Refuses when `FROM` fails `data check`,
/// when a server runs on either directory (their `petty.lock`), or when `TO` already holds data files; checks `TO`
/// after copying. A move is a copy, then removing `FROM`.
struct DataCopy {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let from: String
    let to: String

    /// The names copied: every data file that exists, then the format record and the fleet marks (`fleet.json`).
    static let names = DataDirectory.File.allCases.map(\.rawValue) + [DataDirectory.formatFile, FleetMarksFile.fileName]

    /// Copies and returns the check of the copy.
    func run() throws -> DataCheck.Report {
        let source = DataCheck(path: from).run()
        guard source.ok else {
            throw Failure(description: "\(from) has problems; nothing copied:\n" + source.problems.map { "  \($0)" }.joined(separator: "\n"))
        }
        let sourceLock = DataDirectoryLock(directory: from), targetLock = DataDirectoryLock(directory: to)
        try sourceLock.acquire()
        defer { sourceLock.release() }
        try targetLock.acquire()
        defer { targetLock.release() }
        let occupied = Self.names.filter { FileManager.default.fileExists(atPath: (to as NSString).appendingPathComponent($0)) }
        guard occupied.isEmpty else {
            throw Failure(description: "\(to) already holds \(occupied.joined(separator: ", ")); nothing copied (copy into an empty directory)")
        }
        for name in Self.names {
            guard let bytes = FileManager.default.contents(atPath: (from as NSString).appendingPathComponent(name)) else { continue }
            try AtomicFile.write(Array(bytes), to: (to as NSString).appendingPathComponent(name))
        }
        let copy = DataCheck(path: to).run()
        guard copy.ok, copy.dataset == source.dataset else {
            throw Failure(description: "the copy in \(to) does not check out:\n" + copy.problems.map { "  \($0)" }.joined(separator: "\n"))
        }
        return copy
    }
}
