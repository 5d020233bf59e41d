import HTTP

/// Which requests are per client rather than shared: a query naming a point (`near`) or favourites (`ids`) is
/// answered fresh each time instead of filling the memo with answers nobody asks for twice.
enum PerClientQuery {
    /// Whether the raw query has a parameter named one of `names` (as spelled; an encoded name only costs a memo slot).
    static func has(_ request: Request, _ names: String...) -> Bool {
        guard let query = request.head.rawQuery else { return false }
        for pair in query.utf8.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true) {
            let name = pair.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false).first ?? pair
            if names.contains(where: { $0.utf8.elementsEqual(name) }) { return true }
        }
        return false
    }
}
