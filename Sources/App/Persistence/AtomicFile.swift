#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Whole-file writes that never leave a half-written file behind: write a temp file, fsync it, rename it
/// over the old one, fsync the directory.
enum AtomicFile {
    struct WriteError: Error, CustomStringConvertible {
        let path: String
        let call: String
        let code: Int32
        var description: String { "\(call) \(path): \(String(cString: strerror(code)))" }
    }

    static func write(_ data: [UInt8], to path: String) throws {
        let temp = path + ".tmp-\(getpid())"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw WriteError(path: temp, call: "open", code: errno) }
        var offset = 0
        while offset < data.count {
            let n = data[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                unlink(temp)
                throw WriteError(path: temp, call: "write", code: code)
            }
            offset += n
        }
        guard fsync(fd) == 0 else {
            let code = errno
            close(fd)
            unlink(temp)
            throw WriteError(path: temp, call: "fsync", code: code)
        }
        close(fd)
        guard rename(temp, path) == 0 else {
            let code = errno
            unlink(temp)
            throw WriteError(path: path, call: "rename", code: code)
        }
        let directory = (path as NSString).deletingLastPathComponent
        let dirFd = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFd >= 0 {
            fsync(dirFd)
            close(dirFd)
        }
    }

    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }
}
