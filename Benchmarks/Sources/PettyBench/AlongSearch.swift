import Foundation
import App
import Fuel

/// The route search alone, in process: every route of a file of captured `/v1/stations/along` URLs (one per line,
/// or the lua list `bench.sh` writes) searched over the bundled sample dataset, as the server's `FuelIndex.along`
/// does per request, with no HTTP or body around it. Steadier than a wrk row on a noisy machine, so it is how a
/// change to the corridor search is judged before the `along` row confirms it.
///
///   PettyBench along-search --urls FILE [--runs 15]
enum AlongSearch {
    static func run(_ options: Options) throws {
        guard let path = options.string("urls") else { throw BenchError("along-search needs --urls FILE") }
        let runs = try options.int("runs", default: 15)
        let queries = try read(path)
        guard !queries.isEmpty else { throw BenchError("no along URLs in \(path)") }
        let index = FuelIndex(snapshot: try BenchmarkFacade.sampleDataset().snapshot)

        var perRoute: [Double] = []
        var found = 0
        for _ in 0..<runs {
            found = 0
            let start = ProcStats.millis()
            for query in queries { found += try index.along(query).total }
            perRoute.append((ProcStats.millis() - start) * 1000 / Double(queries.count))
        }
        print("along-search: \(queries.count) routes over the sample dataset (\(index.snapshot.entries.count) stations), \(found) hits per pass, \(runs) passes")
        print("per route median \(fixed(median(perRoute), 2)) µs  min \(fixed(perRoute.min() ?? 0, 2)) µs")
    }

    /// Each URL's route, detour, fuel, sort and limit, as `AlongController` reads them.
    private static func read(_ path: String) throws -> [AlongQuery] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").compactMap { line -> AlongQuery? in
            guard let start = line.range(of: "/v1/stations/along?") else { return nil }
            let url = line[start.lowerBound...].prefix { $0 != "\"" }
            guard let items = URLComponents(string: String(url))?.queryItems else { return nil }
            func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
            guard let polyline = value("polyline") else { return nil }
            var query = AlongQuery(route: try RoutePath(points: try Polyline.decode(polyline)))
            if let detour = value("detour_km").flatMap(Double.init) { query.detourKm = detour }
            query.fuel = value("fuel").flatMap(FuelType.init(rawValue:))
            query.sort = value("sort").flatMap(AlongQuery.Sort.init(rawValue:)) ?? .alongKm
            if let limit = value("limit").flatMap(Int.init) { query.limit = limit }
            return query
        }
    }
}
