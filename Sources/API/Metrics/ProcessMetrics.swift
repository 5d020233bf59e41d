import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HTTP

/// The process's resident memory (from `/proc/self/statm`) and uptime.
enum ProcessMetrics {
    /// Resident set size in bytes; nil where `/proc` is not readable.
    static func residentBytes() -> Int? {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return nil }
        // Fields: size resident shared text lib data dt, in pages.
        let fields = statm.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    static func write(to out: inout PrometheusText, startedAt: Date, now: Date) {
        if let resident = residentBytes() {
            out.metric("petty_process_resident_memory_bytes", .gauge, value: Double(resident), help: "Resident set size of the server process.")
        }
        out.metric("petty_process_uptime_seconds", .gauge, value: max(0, now.timeIntervalSince(startedAt)).rounded(), help: "Seconds since the server started.")
    }
}
