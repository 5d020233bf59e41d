import Foundation

/// Which format a data directory is in. Once a save has written the checksummed format, a file without its
/// checksum line has had it removed: it is refused, not loaded as a file from before checksums. That is recorded
/// twice so it survives the loss of either record: the `format` file, and the checksum line of any other data file.
extension DataDirectory {
    static let formatFile = "format"
    static let sealedFormat = "petty-data sealed\n"

    var formatPath: String { (path as NSString).appendingPathComponent(Self.formatFile) }

    /// Whether the directory was written with checksums: the `format` file says so, or one of `present` ends with
    /// a checksum line (its last bytes only are read).
    func isSealedFormat(_ present: [File]) -> Bool {
        if FileManager.default.fileExists(atPath: formatPath) { return true }
        return present.contains { Self.endsWithSeal(url($0)) }
    }

    /// Records the checksummed format (once; the file never changes after).
    func markSealedFormat() throws {
        guard !FileManager.default.fileExists(atPath: formatPath) else { return }
        try AtomicFile.write(Array(Self.sealedFormat.utf8), to: formatPath)
    }

    static func endsWithSeal(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let size = try? handle.seekToEnd(), size >= UInt64(FileSeal.trailerLength),
              (try? handle.seek(toOffset: size - UInt64(FileSeal.trailerLength))) != nil,
              let tail = try? handle.read(upToCount: FileSeal.trailerLength)
        else { return false }
        return Array(tail).starts(with: FileSeal.prefix)
    }

    /// What shows that a server has run on this directory before (its lock file, the format record, a file moved
    /// aside), or nil for a directory that is new or was always empty.
    func remnantOfEarlierRun() -> String? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        if names.contains(Self.formatFile) { return Self.formatFile }
        if names.contains(DataDirectoryLock.fileName) { return DataDirectoryLock.fileName }
        return names.first { $0.contains(".corrupt-") }
    }
}
