import Foundation
import Synchronization

/// This process's resident set size from `/proc/self/statm`, and a sampler for its peak while something runs:
/// freed memory is not always returned to the system, but a peak sampled every millisecond cannot hide a balloon.
enum ResidentMemory {
    static func current() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Runs `body` while sampling RSS; returns its result, the RSS before and the highest RSS seen.
    static func peak<T>(during body: () async throws -> T) async rethrows -> (result: T, before: Int, peak: Int) {
        let before = current()
        let sampler = Sampler(start: before)
        Thread { sampler.run() }.start()
        let result = try await body()
        return (result, before, sampler.stop())
    }

    private final class Sampler: Sendable {
        private let running = Atomic<Bool>(true)
        private let highest: Atomic<Int>
        private let finished = Atomic<Bool>(false)

        init(start: Int) { highest = Atomic(start) }

        func run() {
            while running.load(ordering: .acquiring) {
                highest.max(current(), ordering: .relaxed)
                usleep(1000)
            }
            finished.store(true, ordering: .releasing)
        }

        func stop() -> Int {
            running.store(false, ordering: .releasing)
            while !finished.load(ordering: .acquiring) { usleep(500) }
            return max(highest.load(ordering: .relaxed), current())
        }
    }
}
