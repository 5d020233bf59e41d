/// Header fields in arrival order. Duplicates are kept; lookup ignores ASCII case.
public struct HTTPHeaders: Sendable, Sequence, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public typealias Element = (name: String, value: String)
    private(set) var fields: [Element]

    public init() { fields = [] }

    public init(_ fields: [(String, String)]) {
        self.fields = fields.map { (name: $0.0, value: $0.1) }
    }

    /// Fields already labelled, taken as they are (the other initializers relabel every pair into a second array).
    public init(fields: [Element]) {
        self.fields = fields
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
        firstIndex(name: name).map { fields[$0].value }
    }

    public func contains(name: String) -> Bool {
        firstIndex(name: name) != nil
    }

    /// Where the first field with this name is, at or after `start`. Names are read in place: a `for (name, value)`
    /// loop or a predicate over whole fields copies each one, a retain and a release per string, on every response.
    func firstIndex(name: String, from start: Int = 0) -> Int? {
        let count = name.utf8.count
        var index = start
        while index < fields.count {
            // Lengths first, read through the field in place: most names differ in length.
            if fields[index].name.utf8.count == count, Self.equalsIgnoringCase(fields[index].name, name) { return index }
            index += 1
        }
        return nil
    }

    /// Whether any field with this name lists `token` (ASCII case ignored) among its comma-separated values, as
    /// `tokens(name:)` would, without allocating: `Connection` is checked on every request.
    public func containsToken(_ token: StaticString, name: String) -> Bool {
        var next = firstIndex(name: name)
        while let index = next {
            next = firstIndex(name: name, from: index + 1)
            let found = Self.withUTF8(fields[index].value) { bytes in
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
        // Then exact equality, which for the same literal or small string is a comparison of two words.
        guard a.utf8.count == b.utf8.count else { return false }
        if a == b { return true }
        // Read in place: copying either string to call `withUTF8` costs a retain and a release per comparison.
        return withUTF8(a) { x in withUTF8(b) { y in equalsIgnoringCase(x, y) } }
    }

    /// `body` over `text`'s UTF-8, read in place when it is contiguous (native strings are), else copied.
    @inline(__always)
    static func withUTF8<R>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    private static func equalsIgnoringCase(_ x: UnsafeBufferPointer<UInt8>, _ y: UnsafeBufferPointer<UInt8>) -> Bool {
        guard x.count == y.count else { return false }
        for i in 0..<x.count where x[i] != y[i] {
            let lower = x[i] | 0x20
            if lower != y[i] | 0x20 || lower < UInt8(ascii: "a") || lower > UInt8(ascii: "z") { return false }
        }
        return true
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
