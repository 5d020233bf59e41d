#if canImport(Glibc)
import Glibc
#endif

/// Seconds on the monotonic clock: deadlines never move with the wall clock.
enum Monotonic {
    static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
