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
    /// A forgotten statement's name stays taken on the server until the session ends, so names are not reused...
    private var issued = 0
    /// ...except one whose Parse the server refused, which it never created.
    private var unparsed: String?

    /// The name to bind `sql` by, and whether this session has parsed it already.
    mutating func statement(for sql: String) -> Statement {
        if let name = names[sql] { return Statement(name: name, parsed: true) }
        if let name = unparsed { return Statement(name: name, parsed: false) }
        guard issued < Self.limit else { return Statement(name: "", parsed: false) }
        issued += 1
        unparsed = "petty_\(issued)"
        return Statement(name: unparsed!, parsed: false)
    }

    /// Records a ParseComplete for `sql` under `name` (the unnamed statement is not kept).
    mutating func parsed(_ sql: String, as name: String) {
        guard !name.isEmpty else { return }
        names[sql] = name
        if unparsed == name { unparsed = nil }
    }

    mutating func forget(_ sql: String) {
        names[sql] = nil
    }
}
