/// One forward-only schema step: applied once, in its own transaction, and recorded by its version.
public struct Migration: Sendable, Equatable {
    public var version: Int
    public var name: String
    /// Statements separated by semicolons; constant SQL, never values.
    public var sql: String

    public init(version: Int, name: String, sql: String) {
        self.version = version
        self.name = name
        self.sql = sql
    }
}
