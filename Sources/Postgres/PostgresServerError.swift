/// An ErrorResponse or NoticeResponse: its fields by their one-letter codes (protocol §55.8 "Error and Notice Message Fields").
public struct PostgresServerError: Sendable, Equatable, CustomStringConvertible {
    public var fields: [UInt8: String]

    public init(fields: [UInt8: String]) { self.fields = fields }

    /// ERROR, FATAL or PANIC (or WARNING, NOTICE... in a notice), never localised ('V').
    public var severity: String { fields[UInt8(ascii: "V")] ?? fields[UInt8(ascii: "S")] ?? "ERROR" }
    /// The SQLSTATE, e.g. 23505 for a unique violation.
    public var code: String { fields[UInt8(ascii: "C")] ?? "XX000" }
    public var message: String { fields[UInt8(ascii: "M")] ?? "" }
    public var detail: String? { fields[UInt8(ascii: "D")] }
    public var hint: String? { fields[UInt8(ascii: "H")] }
    public var schema: String? { fields[UInt8(ascii: "s")] }
    public var table: String? { fields[UInt8(ascii: "t")] }
    public var column: String? { fields[UInt8(ascii: "c")] }
    public var constraint: String? { fields[UInt8(ascii: "n")] }

    /// FATAL and PANIC end the session: the server closes the connection after sending them.
    public var endsSession: Bool { severity == "FATAL" || severity == "PANIC" }

    public var description: String {
        var text = "\(severity) \(code): \(message)"
        if let detail { text += " (detail: \(detail))" }
        if let constraint { text += " (constraint: \(constraint))" }
        if let table { text += " (table: \(table))" }
        if let column { text += " (column: \(column))" }
        if let hint { text += " (hint: \(hint))" }
        return text
    }
}

/// SQLSTATEs the callers act on (Appendix A of the PostgreSQL manual).
public enum SQLState {
    public static let uniqueViolation = "23505"
    public static let foreignKeyViolation = "23503"
    public static let checkViolation = "23514"
    public static let invalidPassword = "28P01"
    public static let invalidAuthorization = "28000"
    public static let adminShutdown = "57P01"
    public static let queryCanceled = "57014"
    public static let serializationFailure = "40001"
    public static let raiseException = "P0001"
    /// feature_not_supported, as "cached plan must not change result type" is raised.
    static let cachedPlanInvalid = "0A000"
}
