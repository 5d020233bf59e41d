/// The statements a session has parsed, by their SQL: a statement is parsed once and bound by name after that, so
/// the server plans it once per session rather than on every execution (Petty's SQL is a fixed set of strings).
/// Named statements outlive a rolled-back transaction and end with the session, as the connection does when broken.
struct PreparedStatements {
    /// Beyond this many, statements are parsed unnamed each time: SQL built per call never fills the server's memory.
    static let limit = 200

    struct Statement {
        var name: String
        var parsed: Bool
    }

    private var names: [String: String] = [:]
    /// Names are never reused: a forgotten statement's name stays taken on the server until the session ends.
    private var issued = 0

    /// The name to bind `sql` by, and whether this session has parsed it already.
    mutating func statement(for sql: String) -> Statement {
        if let name = names[sql] { return Statement(name: name, parsed: true) }
        guard issued < Self.limit else { return Statement(name: "", parsed: false) }
        issued += 1
        return Statement(name: "petty_\(issued)", parsed: false)
    }

    /// Records a ParseComplete for `sql` under `name` (the unnamed statement is not kept).
    mutating func parsed(_ sql: String, as name: String) {
        guard !name.isEmpty else { return }
        names[sql] = name
    }

    mutating func forget(_ sql: String) {
        names[sql] = nil
    }
}
