#if canImport(Glibc)
import Glibc
#endif

/// Log lines written on an event loop thread collect here and leave in one `write` per loop iteration,
/// so one-line-per-request logging does not cost a system call per request. Other threads write directly.
final class LogBuffer {
    private var bytes: [UInt8] = []
    private let fd: Int32
    static let flushThreshold = 64 * 1024

    private init(fd: Int32) {
        self.fd = fd
        bytes.reserveCapacity(16 * 1024)
    }

    nonisolated(unsafe) private static var key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// The calling thread's buffer for `fd`, if it installed one.
    static func current(for fd: Int32) -> LogBuffer? {
        guard let raw = pthread_getspecific(key) else { return nil }
        let buffer = Unmanaged<LogBuffer>.fromOpaque(raw).takeUnretainedValue()
        return buffer.fd == fd ? buffer : nil
    }

    /// Installs a buffer on the calling thread (an event loop) for lines bound for `fd`.
    static func install(fd: Int32) -> LogBuffer {
        let buffer = LogBuffer(fd: fd)
        pthread_setspecific(key, Unmanaged.passRetained(buffer).toOpaque())
        return buffer
    }

    /// Flushes and removes the calling thread's buffer.
    func uninstall() {
        flush()
        if pthread_getspecific(Self.key) != nil {
            pthread_setspecific(Self.key, nil)
            Unmanaged.passUnretained(self).release()
        }
    }

    func append(_ line: String) {
        var line = line
        line.withUTF8 { bytes.append(contentsOf: $0) }
        if bytes.count >= Self.flushThreshold { flush() }
    }

    func flush() {
        guard !bytes.isEmpty else { return }
        bytes.withUnsafeBytes { SystemCall.writeAll(fd, $0) }
        bytes.removeAll(keepingCapacity: bytes.capacity <= 256 * 1024)
    }
}
