// libFuzzer target `query`: arbitrary bytes (as a String, invalid UTF-8 repaired) into `URLQuery`, and the
// path normaliser's String entry point. Invariants: the query never has more items than `&`-separated
// pieces, lookups agree with `items`, and a query without `%` or `+` round-trips through its items.
@testable import HTTP

private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("query invariant violated: \(message())") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let raw = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let query = URLQuery(raw)
    let pieces = raw.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
    check(query.items.count == pieces.count, "\(query.items.count) items from \(pieces.count) pieces")
    for item in query.items.prefix(16) {
        check(query.contains(item.name), "contains(\(item.name)) is false")
        check(query[item.name] != nil, "subscript(\(item.name)) is nil")
        check(query.values(for: item.name).contains(item.value), "values(for: \(item.name)) lacks \(item.value)")
    }
    check(Set(query.keys).count == query.keys.count, "keys repeat")
    check(Set(query.keys) == Set(query.items.map(\.name)), "keys differ from item names")
    if !raw.utf8.contains(UInt8(ascii: "%")), !raw.utf8.contains(UInt8(ascii: "+")) {
        // Nothing to decode: each piece is `name` or `name=value`, split at its first `=`.
        for (item, piece) in zip(query.items, pieces) {
            let text = String(decoding: piece, as: UTF8.self)
            let joined = piece.contains(UInt8(ascii: "=")) ? item.name + "=" + item.value : item.name
            check(joined == text, "item \(item) does not rebuild \(text)")
        }
    }
    // The same bytes as a path (the parser's String entry point, used by tools and tests), when they could be
    // a request target: visible ASCII, as the request line guarantees.
    if raw.utf8.first == UInt8(ascii: "/"), raw.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }), let normalized = try? PathNormalizer.normalize(raw) {
        for segment in normalized.segments {
            check(!segment.isEmpty && segment != "." && segment != "..", "bad segment in \(normalized.segments)")
            check(!segment.utf8.contains(0), "NUL in segment")
        }
    }
    return 0
}
