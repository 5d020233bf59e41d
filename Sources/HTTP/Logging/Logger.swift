#if canImport(Glibc)
import Glibc
#endif
import CEpoll

/// A minimal structured logger: level checked first, message built lazily, control characters escaped,
/// one `write` per line.
public struct Logger: Sendable {
    public enum Level: Int, Comparable, Sendable, CaseIterable {
        case trace, debug, info, notice, warning, error, critical

        public init?(name: String) {
            guard let level = Level.allCases.first(where: { "\($0)" == name.lowercased() }) else { return nil }
            self = level
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    public var label: String
    public var level: Level
    private let sink: LogSink

    public init(label: String, level: Level = .info, sink: LogSink = .standardOutput) {
        self.label = label
        self.level = level
        self.sink = sink
    }

    public func log(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= self.level else { return }
        // Escaped here, once, so no caller can forge a line or send terminal controls (see `LogEscaping`).
        sink.write("\(LogTimestamp.now()) \(level.name) [\(LogEscaping.escaped(label))] \(LogEscaping.escaped(message()))\n")
    }

    public func trace(_ message: @autoclosure () -> String) { log(.trace, message()) }
    public func debug(_ message: @autoclosure () -> String) { log(.debug, message()) }
    public func info(_ message: @autoclosure () -> String) { log(.info, message()) }
    public func notice(_ message: @autoclosure () -> String) { log(.notice, message()) }
    public func warning(_ message: @autoclosure () -> String) { log(.warning, message()) }
    public func error(_ message: @autoclosure () -> String) { log(.error, message()) }

    /// A copy with another label, sharing the sink and level.
    public func labelled(_ label: String) -> Logger {
        var copy = self
        copy.label = label
        return copy
    }
}

extension Logger.Level {
    var name: String {
        switch self {
        case .trace: "TRACE"
        case .debug: "DEBUG"
        case .info: "INFO"
        case .notice: "NOTICE"
        case .warning: "WARN"
        case .error: "ERROR"
        case .critical: "CRIT"
        }
    }
}

/// Where log lines go. `.memory` collects them, for tests.
public final class LogSink: Sendable {
    private let fd: Int32
    private let memory: MemoryLines?

    public static let standardOutput = LogSink(fd: 1)
    public static let standardError = LogSink(fd: 2)

    init(fd: Int32) {
        self.fd = fd
        self.memory = nil
    }

    private init(memory: MemoryLines) {
        self.fd = -1
        self.memory = memory
    }

    public static func inMemory() -> LogSink { LogSink(memory: MemoryLines()) }

    public var lines: [String] { memory?.all ?? [] }

    func write(_ line: String) {
        if let memory {
            memory.append(line)
            return
        }
        if let buffer = LogBuffer.current(for: fd) {
            buffer.append(line)
            return
        }
        var line = line
        line.withUTF8 { SystemCall.writeAll(fd, UnsafeRawBufferPointer($0)) }
    }
}

import Synchronization

final class MemoryLines: Sendable {
    private let storage = Mutex<[String]>([])
    func append(_ line: String) { storage.withLock { $0.append(line) } }
    var all: [String] { storage.withLock { $0 } }
}

enum LogTimestamp {
    /// `2026-11-21T06:05:03.123Z`
    static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var t = spec.tv_sec
        var parts = tm()
        gmtime_r(&t, &parts)
        func pad(_ n: Int, _ width: Int) -> String {
            let s = String(n)
            return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
        }
        return "\(parts.tm_year + 1900)-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))T\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2)).\(pad(spec.tv_nsec / 1_000_000, 3))Z"
    }
}
