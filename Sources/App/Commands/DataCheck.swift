import API
import Foundation
import Fuel
import HTTP

/// `Run data check DIR`: verifies every file of a data directory without changing it (nothing is moved aside) and
/// says what each holds: checksum, versions, counts, the id high-water mark. Any problem (a damaged, refused or
/// missing file, a change log beside another snapshot) makes the exit status non-zero.
struct DataCheck {
    struct Report {
        var lines: [String] = []
        var problems: [String] = []
        var dataset = Dataset()
        var ok: Bool { problems.isEmpty }
        var text: String { (lines + problems.map { "PROBLEM: \($0)" } + [ok ? "ok" : "\(problems.count) problem(s)"]).joined(separator: "\n") }
    }

    let path: String

    func run() -> Report {
        var report = Report()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            report.problems.append("\(path) is not a directory")
            return report
        }
        let directory = DataDirectory(path: path, logger: Logger(label: "data-check", level: .critical, sink: .standardError), readOnly: true)
        let present = DataDirectory.File.allCases.filter { FileManager.default.fileExists(atPath: directory.url($0)) }
        let sealed = directory.isSealedFormat(present)
        report.lines.append("\(path): \(sealed ? "checksummed format" : "format from before checksums")")
        for file in DataDirectory.File.allCases {
            report.lines.append("  \(file.rawValue): \(Self.seal(of: directory.url(file)))")
            if !present.contains(file) { report.problems.append("\(file.rawValue) is missing") }
        }
        let loaded = directory.load()
        report.problems += loaded.problems
        let dataset = loaded.dataset
        report.dataset = dataset
        let snapshot = dataset.snapshot
        report.lines.append("  snapshot v\(snapshot.version): \(snapshot.stationCount) stations, \(snapshot.priceCount) prices, "
            + "changed \(snapshot.changedAt.map(ISOTimestamp.string) ?? "never")")
        for status in snapshot.statuses {
            report.lines.append("    \(status.provider.rawValue): \(status.source.rawValue), \(status.stationCount) stations, as of \(status.asOf.map(ISOTimestamp.string) ?? "never")")
        }
        report.lines.append("  ids: \(dataset.registry.count) assigned, highest ever issued \(dataset.registry.lastAssigned)")
        report.lines.append("  history: \(dataset.history.series.count) series, \(dataset.history.series.values.reduce(0) { $0 + $1.count }) days")
        report.lines.append("  changes: v\(dataset.changes.version), \(dataset.changes.removals.count) removals kept")
        report.lines.append("  station history: \(dataset.stationHistory.tracks.count) tracks, \(dataset.stationHistory.markCount) changes")
        if let changes = Self.savedChangeLogVersion(directory), changes != snapshot.version, present.contains(.snapshot) {
            report.problems.append("changes.json describes v\(changes), not the snapshot's v\(snapshot.version): clients' sync cursors will be refused (410)")
        }
        return report
    }

    /// How a file ends: its checksum line verified, missing, or wrong.
    static func seal(of path: String) -> String {
        guard let data = FileManager.default.contents(atPath: path) else { return "missing" }
        switch FileSeal.open(Array(data)) {
        case .verified: return "\(data.count) bytes, checksum ok"
        case .unsealed: return "\(data.count) bytes, no checksum line"
        case .mismatch: return "\(data.count) bytes, CHECKSUM MISMATCH"
        }
    }

    /// The snapshot version `changes.json` was saved beside, if it reads at all.
    static func savedChangeLogVersion(_ directory: DataDirectory) -> UInt64? {
        guard let data = FileManager.default.contents(atPath: directory.url(.changes)) else { return nil }
        guard case .verified(let payload) = FileSeal.open(Array(data)) else { return nil }
        return (try? StoredJSON.decoder.decode(MarkedChangeLog.self, from: Data(payload)))?.log.version
    }
}
