import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where the tests' data directories live: one root per test process (`petty-tests-<pid>` in the temporary
/// directory), removed when the process exits. A root whose process died without exiting (a crash, a kill) is
/// removed by the next test process, so `swift test` leaves nothing behind in /tmp.
enum TestScratch {
    static let prefix = "petty-tests-"

    static let root: String = {
        let base = NSTemporaryDirectory()
        removeAbandonedRoots(in: base)
        let root = base + prefix + String(getpid())
        try? FileManager.default.removeItem(atPath: root)
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        atexit { TestScratch.removeRoot() }
        return root
    }()

    private static func removeRoot() {
        try? FileManager.default.removeItem(atPath: root)
    }

    /// Roots of test processes that are no longer running.
    private static func removeAbandonedRoots(in base: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: base)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), pid != getpid() else { continue }
            if kill(pid, 0) == -1 && errno == ESRCH { try? FileManager.default.removeItem(atPath: base + name) }
        }
    }
}
