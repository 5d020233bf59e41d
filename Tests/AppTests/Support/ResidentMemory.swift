import Foundation
import Synchronization

/// This process's resident memory, from `/proc/self/statm`.
enum ResidentMemory {
    static func bytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        return fields.count > 1 ? (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE))) : 0
    }

    /// Samples every 20 ms from `init` until `stop()`, which returns the first reading and the highest.
    final class Watch: Sendable {
        private let baseline = ResidentMemory.bytes()
        private let highest = Atomic<Int>(0)
        private let sampler = Mutex<Task<Void, Never>?>(nil)

        init() {
            highest.store(baseline, ordering: .relaxed)
            let task = Task { [self] in
                while !Task.isCancelled {
                    self.highest.max(ResidentMemory.bytes(), ordering: .relaxed)
                    try? await Task.sleep(nanoseconds: 20_000_000)
                }
            }
            sampler.withLock { $0 = task }
        }

        func stop() -> (baseline: Int, peak: Int) {
            sampler.withLock { $0?.cancel() }
            highest.max(ResidentMemory.bytes(), ordering: .relaxed)
            return (baseline, highest.load(ordering: .relaxed))
        }
    }
}
