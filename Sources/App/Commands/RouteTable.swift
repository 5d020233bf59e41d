import HTTP

/// `Run routes`: one line per route, method then pattern, sorted by pattern.
enum RouteTable {
    static func render(_ routes: [Route]) -> String {
        let rows = routes.map { ($0.method.rawValue, $0.path.pattern) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
        let width = max(6, rows.map(\.0.count).max() ?? 0)
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n")
    }
}
