/// A column of a result: its name and its type's OID (e.g. 23 int4, 25 text, 16 bool, 1700 numeric).
public struct PostgresColumn: Sendable, Equatable {
    public var name: String
    public var typeOID: UInt32
}

/// What one statement returned: the columns, the rows in text format, and the command tag.
public struct PostgresRows: Sendable, Equatable {
    public var columns: [PostgresColumn]
    public var rows: [PostgresRow]
    /// As the server sent it: "SELECT 2", "INSERT 0 1", "UPDATE 3", "BEGIN"...
    public var commandTag: String

    public init(columns: [PostgresColumn], rows: [PostgresRow], commandTag: String) {
        self.columns = columns
        self.rows = rows
        self.commandTag = commandTag
    }

    /// Rows inserted, updated, deleted, selected, moved, fetched or copied: the tag's last number.
    public var affectedRows: Int? {
        guard let last = commandTag.split(separator: " ").last, let count = Int(last), commandTag.contains(" ") else { return nil }
        return count
    }

    public var first: PostgresRow? { rows.first }
}

/// One row: its values as the server's text, nil for NULL, readable by column name.
public struct PostgresRow: Sendable, Equatable {
    public var columns: [PostgresColumn]
    public var values: [String?]

    public init(columns: [PostgresColumn], values: [String?]) {
        self.columns = columns
        self.values = values
    }

    /// The value of the first column named `name`; nil for NULL or no such column.
    public subscript(_ name: String) -> String? {
        guard let index = columns.firstIndex(where: { $0.name == name }) else { return nil }
        return values[index]
    }

    public func string(_ name: String) throws -> String {
        guard let index = columns.firstIndex(where: { $0.name == name }) else { throw PostgresError.protocolViolation("no column '\(name)' in the result") }
        guard let value = values[index] else { throw PostgresError.protocolViolation("column '\(name)' is NULL") }
        return value
    }

    public func int(_ name: String) throws -> Int {
        let text = try string(name)
        guard let value = Int(text) else { throw PostgresError.protocolViolation("column '\(name)' is not an integer") }
        return value
    }

    public func double(_ name: String) throws -> Double {
        let text = try string(name)
        guard let value = Double(text) else { throw PostgresError.protocolViolation("column '\(name)' is not a number") }
        return value
    }

    public func bool(_ name: String) throws -> Bool {
        switch try string(name) {
        case "t": return true
        case "f": return false
        default: throw PostgresError.protocolViolation("column '\(name)' is not a boolean")
        }
    }

    public func optionalInt(_ name: String) throws -> Int? { self[name] == nil ? nil : try int(name) }
    public func optionalDouble(_ name: String) throws -> Double? { self[name] == nil ? nil : try double(name) }
}
