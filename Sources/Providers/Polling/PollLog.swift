/// Log lines from pollers; the App bridges it to its logger.
public struct PollLog: Sendable {
    public enum Level: Sendable { case debug, info, notice, warning, error }
    private let sink: @Sendable (Level, String) -> Void

    public init(_ sink: @escaping @Sendable (Level, String) -> Void) { self.sink = sink }

    public static let silent = PollLog { _, _ in }

    public func callAsFunction(_ level: Level, _ message: String) { sink(level, message) }
}
