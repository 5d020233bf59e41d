import HTTP

/// Which requests are per client rather than shared: a query naming a point (`near`) or favourites (`ids`) is
/// answered fresh each time instead of filling the memo with answers nobody asks for twice.
struct PerClientQuery: OptionSet, Sendable {
    let rawValue: UInt8

    static let near = PerClientQuery(rawValue: 1 << 0)
    static let ids = PerClientQuery(rawValue: 1 << 1)

    /// Whether the raw query has a parameter named one of these (as spelled; an encoded name only costs a memo
    /// slot). Reads the query's bytes in place: nothing is allocated on the hot path.
    func matches(_ request: Request) -> Bool {
        guard !isEmpty, let query = request.head.rawQuery else { return false }
        let bytes = query.utf8
        var nameStart = bytes.startIndex
        var nameEnd: String.UTF8View.Index?
        var index = bytes.startIndex
        while index < bytes.endIndex {
            switch bytes[index] {
            case UInt8(ascii: "&"):
                if names(bytes[nameStart..<(nameEnd ?? index)]) { return true }
                nameStart = bytes.index(after: index)
                nameEnd = nil
            case UInt8(ascii: "=") where nameEnd == nil:
                nameEnd = index
            default:
                break
            }
            index = bytes.index(after: index)
        }
        return names(bytes[nameStart..<(nameEnd ?? index)])
    }

    private func names(_ name: Substring.UTF8View) -> Bool {
        (contains(.near) && name.elementsEqual("near".utf8)) || (contains(.ids) && name.elementsEqual("ids".utf8))
    }
}
