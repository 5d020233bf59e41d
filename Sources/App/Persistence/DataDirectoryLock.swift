#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One server per data directory: an exclusive `flock` on `petty.lock` inside it, held while the process runs.
/// Two servers on one directory would each assign station ids and overwrite each other's files.
/// The kernel drops the lock when the process dies, so a crash never leaves a stale lock behind.
// @unchecked: `fd` is written by acquire() and release(), which the lifecycle calls from one thread, never concurrently.
final class DataDirectoryLock: @unchecked Sendable {
    static let fileName = "petty.lock"

    struct Held: Error, CustomStringConvertible {
        let directory: String
        var description: String {
            "data directory \(directory) is in use by another Petty server (\(DataDirectoryLock.fileName) is locked); give each server its own PETTY_DATA_DIR"
        }
    }

    let directory: String
    private var fd: Int32 = -1

    var path: String { (directory as NSString).appendingPathComponent(Self.fileName) }

    init(directory: String) {
        self.directory = directory
    }

    deinit { release() }

    /// Takes the lock, or throws `Held` when another process (or another open of it here) has it.
    func acquire() throws {
        release()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw AtomicFile.WriteError(path: path, call: "open", code: errno) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(fd)
            if code == EWOULDBLOCK { throw Held(directory: directory) }
            throw AtomicFile.WriteError(path: path, call: "flock", code: code)
        }
        self.fd = fd
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
    }

    /// Whether the locked file is still the one at `path` (the directory may have been deleted and re-created).
    var isCurrent: Bool {
        guard fd >= 0 else { return false }
        var held = stat(), current = stat()
        guard fstat(fd, &held) == 0, stat(path, &current) == 0 else { return false }
        return held.st_dev == current.st_dev && held.st_ino == current.st_ino
    }

    func release() {
        guard fd >= 0 else { return }
        close(fd)
        fd = -1
    }
}
