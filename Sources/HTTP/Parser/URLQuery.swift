/// A decoded query string: `application/x-www-form-urlencoded` pairs in order, repeated names kept.
///
/// Decoding follows the WHATWG URL standard's form-urlencoded parser: `&` separates pairs (empty ones are
/// skipped), the first `=` splits name from value (`flag` is `("flag", "")`), `+` is a space, `%XX` is a byte,
/// and a `%` not followed by two hex digits is kept literally. Bytes that are not UTF-8 become U+FFFD.
/// Nothing here fails: a query is data for the handler to validate, not framing.
public struct URLQuery: Sendable {
    public let items: [(name: String, value: String)]

    public init(_ raw: String?) {
        guard var raw, !raw.isEmpty else {
            items = []
            return
        }
        items = raw.withUTF8 { Self.parse($0) }
    }

    /// Pairs that did not come from a query string (a form or JSON body read as parameters).
    public init(items: [(name: String, value: String)]) {
        self.items = items
    }

    /// The first value for `name`.
    public subscript(name: String) -> String? {
        items.first { $0.name == name }?.value
    }

    /// Every value for `name`, in order.
    public func values(for name: String) -> [String] {
        items.compactMap { $0.name == name ? $0.value : nil }
    }

    public func contains(_ name: String) -> Bool {
        items.contains { $0.name == name }
    }

    /// The distinct names, in order of first appearance.
    public var keys: [String] {
        var seen = Set<String>()
        return items.compactMap { seen.insert($0.name).inserted ? $0.name : nil }
    }

    public var isEmpty: Bool { items.isEmpty }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        // One pair per `&`, at most: the list is sized once rather than grown pair by pair.
        items.reserveCapacity(bytes.reduce(1) { $0 + ($1 == ASCII.ampersand ? 1 : 0) })
        var pairStart = 0
        while pairStart <= bytes.count {
            var pairEnd = pairStart, equals: Int?
            while pairEnd < bytes.count, bytes[pairEnd] != ASCII.ampersand {
                if equals == nil, bytes[pairEnd] == ASCII.equals { equals = pairEnd }
                pairEnd += 1
            }
            if pairEnd > pairStart {
                let nameEnd = equals ?? pairEnd
                let valueStart = equals.map { $0 + 1 } ?? pairEnd
                items.append((decode(bytes, pairStart..<nameEnd), decode(bytes, valueStart..<pairEnd)))
            }
            pairStart = pairEnd + 1
        }
        return items
    }

    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        guard range.contains(where: { bytes[$0] == ASCII.percent || bytes[$0] == ASCII.plus }) else {
            return bytes.string(range)
        }
        var decoded: [UInt8] = []
        decoded.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte == ASCII.plus {
                decoded.append(ASCII.space)
            } else if let escaped = bytes.percentEscape(at: index, before: range.upperBound) {
                decoded.append(escaped)
                index += 2
            } else {
                decoded.append(byte)
            }
            index += 1
        }
        return String(decoding: decoded, as: UTF8.self)
    }
}

extension HTTPRequestHead {
    /// The decoded query string (`rawQuery` parsed as form-urlencoded pairs).
    public var query: URLQuery { URLQuery(rawQuery) }
}
