/// Header fields in arrival order. Duplicates are kept; lookup ignores ASCII case.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public typealias Element = (name: String, value: String)
    private(set) var fields: [Element]

    public init() { fields = [] }

    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public func makeIterator() -> IndexingIterator<[Element]> { fields.makeIterator() }

    /// Appends a field, keeping any existing field of the same name.
    public mutating func add(name: String, value: String) {
        fields.append((name: name, value: value))
    }

    /// Replaces every field of this name with one field.
    public mutating func replaceOrAdd(name: String, value: String) {
        remove(name: name)
        fields.append((name: name, value: value))
    }

    public mutating func remove(name: String) {
        fields.removeAll { Self.equalsIgnoringCase($0.name, name) }
    }

    /// Every value of the fields with this name, in order.
    public subscript(name: String) -> [String] {
        fields.compactMap { Self.equalsIgnoringCase($0.name, name) ? $0.value : nil }
    }

    /// The first value of the field with this name.
    public func first(name: String) -> String? {
        fields.first { Self.equalsIgnoringCase($0.name, name) }?.value
    }

    public func contains(name: String) -> Bool {
        fields.contains { Self.equalsIgnoringCase($0.name, name) }
    }

    /// Whether any field with this name lists `token` (ASCII case ignored) among its comma-separated values, as
    /// `tokens(name:)` would, without allocating: `Connection` is checked on every request.
    public func containsToken(_ token: StaticString, name: String) -> Bool {
        for field in fields where Self.equalsIgnoringCase(field.name, name) {
            var value = field.value
            let found = value.withUTF8 { bytes in
                var start = 0
                while start <= bytes.count {
                    var end = start
                    while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
                    var from = start, to = end
                    while from < to && (bytes[from] == 0x20 || bytes[from] == 0x09) { from += 1 }
                    while to > from && (bytes[to - 1] == 0x20 || bytes[to - 1] == 0x09) { to -= 1 }
                    if Self.equalsIgnoringCase(UnsafeBufferPointer(rebasing: bytes[from..<to]), token) { return true }
                    start = end + 1
                }
                return false
            }
            if found { return true }
        }
        return false
    }

    /// `token` is lowercase ASCII.
    private static func equalsIgnoringCase(_ bytes: UnsafeBufferPointer<UInt8>, _ token: StaticString) -> Bool {
        guard bytes.count == token.utf8CodeUnitCount else { return false }
        let expected = token.utf8Start
        for i in 0..<bytes.count {
            var byte = bytes[i]
            if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") { byte |= 0x20 }
            if byte != expected[i] { return false }
        }
        return true
    }

    /// Comma-separated list values of every field with this name, trimmed and lowercased (e.g. `Connection`).
    public func tokens(name: String) -> [String] {
        self[name].flatMap { $0.split(separator: ",") }.map {
            $0.trimmingASCIIWhitespace().lowercasedASCII()
        }.filter { !$0.isEmpty }
    }

    public var description: String {
        fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n")
    }

    static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        // Lengths first (constant time for native strings): most names compared on the hot path differ in length.
        guard a.utf8.count == b.utf8.count else { return false }
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                guard x.count == y.count else { return false }
                for i in 0..<x.count where x[i] != y[i] {
                    let lower = x[i] | 0x20
                    if lower != y[i] | 0x20 || lower < UInt8(ascii: "a") || lower > UInt8(ascii: "z") { return false }
                }
                return true
            }
        }
    }
}

extension StringProtocol {
    func trimmingASCIIWhitespace() -> String {
        let bytes = Array(utf8)
        var start = 0, end = bytes.count
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    func lowercasedASCII() -> String {
        String(decoding: utf8.map { ($0 >= 65 && $0 <= 90) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }
}
