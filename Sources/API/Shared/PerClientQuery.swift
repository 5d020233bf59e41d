import HTTP

/// Which requests are per client rather than shared: a query naming a point (`near`) or favourites (`ids`) is
/// answered fresh each time instead of filling the memo with answers nobody asks for twice.
enum PerClientQuery {
    /// Whether the raw query has a parameter named `name` (as spelled; an encoded name only costs a memo slot).
    static func has(_ request: Request, _ name: StaticString) -> Bool {
        anyName(in: request) { matches($0, name) }
    }

    /// Whether the raw query has a parameter named `first` or `second`.
    static func has(_ request: Request, _ first: StaticString, _ second: StaticString) -> Bool {
        anyName(in: request) { matches($0, first) || matches($0, second) }
    }

    /// Scans the query's names in place: this runs on every request to these routes, so it allocates nothing.
    private static func anyName(in request: Request, _ wanted: (UnsafeBufferPointer<UInt8>) -> Bool) -> Bool {
        guard var query = request.head.rawQuery else { return false }
        return query.withUTF8 { bytes in
            var start = 0
            while start < bytes.count {
                var end = start
                while end < bytes.count, bytes[end] != UInt8(ascii: "&"), bytes[end] != UInt8(ascii: "=") { end += 1 }
                if end > start, wanted(UnsafeBufferPointer(rebasing: bytes[start..<end])) { return true }
                while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
                start = end + 1
            }
            return false
        }
    }

    private static func matches(_ bytes: UnsafeBufferPointer<UInt8>, _ name: StaticString) -> Bool {
        name.withUTF8Buffer { $0.elementsEqual(bytes) }
    }
}
