/// A bind parameter, always sent in text format as a separate value, never spliced into the SQL.
public enum PostgresValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByNilLiteral {
    case text(String)
    case null

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int) { self = .text(String(value)) }
    public init(nilLiteral: ()) { self = .null }

    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }
    public init(_ value: Int?) { self = value.map { .text(String($0)) } ?? .null }
    public init(_ value: Int64?) { self = value.map { .text(String($0)) } ?? .null }
    /// Doubles in their shortest round-tripping form, which PostgreSQL reads back exactly.
    public init(_ value: Double?) { self = value.map { .text("\($0)") } ?? .null }
    public init(_ value: Bool?) { self = value.map { .text($0 ? "t" : "f") } ?? .null }
    /// `bytea` in the hex input format.
    public init(bytes: [UInt8]?) {
        guard let bytes else { self = .null; return }
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8(ascii: "\\"), UInt8(ascii: "x")]
        for byte in bytes { text.append(digits[Int(byte >> 4)]); text.append(digits[Int(byte & 0x0f)]) }
        self = .text(String(decoding: text, as: UTF8.self))
    }
    /// An integer array literal, e.g. `{1,2,3}`, for `int[]`/`bigint[]` columns and `= ANY($1)`.
    public init(integers: [Int]) { self = .text("{" + integers.map(String.init).joined(separator: ",") + "}") }

    var bytes: [UInt8]? {
        if case .text(let text) = self { return Array(text.utf8) }
        return nil
    }
}
