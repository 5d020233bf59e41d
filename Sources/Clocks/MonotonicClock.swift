#if canImport(Glibc)
import Glibc
#endif

/// The one clock elapsed time is measured with, in every module: `CLOCK_MONOTONIC`, which never jumps when the
/// wall clock is set. Durations (request latencies, poll and save times, leases and deadlines) come from here;
/// what an instant means on the calendar (data ages, trading days, `as_of`) comes from each component's injected
/// wall clock instead, so tests can pin it.
public enum MonotonicClock {
    /// Microseconds since an arbitrary fixed point (boot).
    @inline(__always)
    public static func micros() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }

    public static func millis() -> Int64 { micros() / 1000 }

    /// Seconds since the same fixed point, for arithmetic with `TimeInterval`s.
    public static func seconds() -> Double { Double(micros()) / 1e6 }

    /// Seconds since `start`, a `seconds()` reading.
    public static func elapsed(since start: Double) -> Double { seconds() - start }
}
