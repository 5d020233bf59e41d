import HTTP

/// The query parameters one `/v1` operation takes. Any other name is a 400 that names it, suggests the closest
/// known one and lists them all: a typo (`fueltype=U91`) must not look like a filter that matched everything.
/// Share pages do not use this: their links arrive carrying `utm_*`, `fbclid` and the like.
struct KnownParameters: Sendable {
    let operation: String
    let names: [String]

    init(_ operation: String, _ names: [String]) {
        self.operation = operation
        self.names = names
    }

    func check(_ query: URLQuery) throws {
        for (name, _) in query.items where !names.contains(where: { $0.isSameName(as: name) }) {
            throw Abort(.badRequest, reason: reason(for: name))
        }
    }

    func reason(for unknown: String) -> String {
        let shown = unknown.count > 40 ? String(unknown.prefix(40)) + "…" : unknown
        var text = "Unknown parameter '\(shown)'"
        if let guess = suggestion(for: unknown) { text += " (did you mean '\(guess)'?)" }
        text += names.isEmpty ? "; \(operation) takes no query parameters" : "; \(operation) takes: \(names.joined(separator: ", "))"
        return text
    }

    /// The known name a typo most likely meant: the same letters ignoring case, `_` and `-` (`State`, `fuel_type`
    /// is not that, but `fueltype` starts with `fuel`), one a prefix of the other (`radius` → `radius_km`), or at
    /// most two edits away.
    func suggestion(for unknown: String) -> String? {
        let key = Self.folded(unknown)
        guard !key.isEmpty else { return nil }
        if let same = names.first(where: { Self.folded($0) == key }) { return same }
        let prefixed = names.filter { name in
            let known = Self.folded(name)
            return known.count >= 3 && key.count >= 3 && (key.hasPrefix(known) || known.hasPrefix(key))
        }
        if let longest = prefixed.max(by: { $0.count < $1.count }) { return longest }
        let scored = names.map { ($0, Self.editDistance(Self.folded($0), key)) }.filter { $0.1 <= 2 && $0.1 < key.count }
        return scored.min(by: { $0.1 < $1.1 })?.0
    }

    static func folded(_ name: String) -> String {
        String(name.lowercased().filter { $0 != "_" && $0 != "-" })
    }

    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}

/// Every `/v1` operation's parameters, as `Public/openapi.json` documents them (the contract test checks both ways).
extension KnownParameters {
    static let stations = KnownParameters("/v1/stations", [
        "state", "fuel", "brand", "exclude_brand", "open_now", "near", "radius_km", "bbox", "ids", "sort", "limit", "offset",
        "compact", "cluster", "zoom", "after", "q", "postcode", "litres", "l_per_100km",
    ])
    static let along = KnownParameters("/v1/stations/along", [
        "polyline", "detour_km", "fuel", "open_now", "sort", "limit", "offset",
    ])
    static let station = KnownParameters("/v1/stations/{id}", [])
    static let stationHistory = KnownParameters("/v1/stations/{id}/history", ["fuel", "days"])
    static let cheapest = KnownParameters("/v1/prices/cheapest", [
        "fuel", "near", "radius_km", "state", "limit", "offset", "open_now", "include_closed", "include_members_only",
        "litres", "l_per_100km", "sort",
    ])
    static let changes = KnownParameters("/v1/prices/changes", ["since", "cursor", "state", "fuel", "limit"])
    static let averages = KnownParameters("/v1/averages", ["state", "fuel"])
    static let trends = KnownParameters("/v1/trends", ["state", "fuel", "days"])
    static let tomorrow = KnownParameters("/v1/tomorrow", ["state", "fuel", "near", "radius_km", "ids", "limit", "offset"])
    static let advice = KnownParameters("/v1/advice", ["fuel", "near", "city"])
    static let summary = KnownParameters("/v1/summary", ["state", "fuel", "near"])
    static let fuels = KnownParameters("/v1/fuels", [])
    static let brands = KnownParameters("/v1/brands", ["state"])
}
