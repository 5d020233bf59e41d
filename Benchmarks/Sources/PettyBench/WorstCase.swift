import App
import Foundation
import Fuel
import HTTP

#if canImport(Glibc)
import Glibc
#endif

/// For every `/v1` endpoint, the most expensive request we can construct within its documented limits against a
/// plain one of the same endpoint: CPU per request, on the thread that answers it, through the parser and the
/// application a `serve` of `--data-dir` builds (in memory, as `respond`). Every request asks for gzip, as phones
/// do, and each repetition's target differs by trailing `&`s (empty pairs, ignored by every endpoint), so no
/// answer comes from the response memo: a request nobody asked before, what a crawler of distinct URLs costs.
///
///   PettyBench worst --data-dir DIR [--runs 15] [--only ENDPOINT] [--detail 1] [--gzip 0]
///   (--detail: every candidate's figure; --gzip 0: no Accept-Encoding)
///
/// Target (issue 47): the worst at most 20x its endpoint's plain request, and none over 2 ms of CPU.
enum WorstCase {
    struct Row {
        let endpoint: String
        let plain: String
        /// Candidates: the most expensive of them is the row's worst.
        let worst: [(label: String, url: String)]
    }

    static let ratioTarget = 20.0
    static let cpuTargetMicros = 2_000.0

    static func run(_ options: Options) throws {
        guard let dataDirectory = options.string("data-dir") else { throw BenchError("worst needs --data-dir DIR") }
        let runs = try options.int("runs", default: 15)
        let only = options.string("only")
        let detail = options.string("detail") == "1"
        let headers: HTTPHeaders = options.string("gzip") == "0" ? [:] : ["Accept-Encoding": "gzip"]
        let (_, config) = try CommandLineParser.parse(
            ["serve", "--env", "production", "--data-dir", dataDirectory, "--log-level", "error"],
            environment: ["PETTY_PROVIDERS": "none"])
        let app = try buildApplication(config).app
        var serial = 0
        /// Median CPU µs of `runs` distinct spellings of `url`, and the status and body size of the last.
        func measure(_ url: String) throws -> (micros: Double, status: Int, bytes: Int) {
            var times: [Double] = []
            var last: TestResponse?
            for _ in 0..<runs {
                serial += 1
                let target = (url.contains("?") ? url : url + "?") + String(repeating: "&", count: serial % 200 + 1)
                let start = threadCPUMicros()
                let response = try app.test(.GET, target, headers: headers)
                times.append(threadCPUMicros() - start)
                last = response
            }
            return (median(times), last?.status.code ?? 0, last?.body.count ?? 0)
        }

        print("worst: CPU per request (thread time, median of \(runs) distinct spellings), gzip asked, no memo hits")
        print(pad("endpoint", 26) + pad("plain µs", 10) + pad("worst µs", 10) + pad("ratio", 8) + pad("status", 7) + pad("bytes", 9) + "verdict  worst request")
        var passed = 0, failed = 0
        for row in try rows() where only == nil || row.endpoint == only {
            // A warm-up of each, so lazily built indexes are not charged to the first request measured.
            _ = try measure(row.plain)
            for candidate in row.worst { _ = try app.test(.GET, candidate.url) }
            let plain = try measure(row.plain)
            // The plain request is a candidate too: the worst is never cheaper than it.
            var worst: (label: String, micros: Double, status: Int, bytes: Int) = ("(the plain request)", plain.micros, plain.status, plain.bytes)
            for candidate in row.worst {
                let measured = try measure(candidate.url)
                if detail { print("    \(fixed(measured.micros)) µs  \(measured.status)  \(measured.bytes) B  \(candidate.label)") }
                if measured.micros > worst.micros { worst = (candidate.label, measured.micros, measured.status, measured.bytes) }
            }
            let ratio = worst.micros / max(plain.micros, 0.001)
            let ok = ratio <= ratioTarget && worst.micros <= cpuTargetMicros
            if ok { passed += 1 } else { failed += 1 }
            print(pad(row.endpoint, 26) + pad(fixed(plain.micros), 10) + pad(fixed(worst.micros), 10) + pad(fixed(ratio) + "x", 8)
                + pad("\(worst.status)", 7) + pad("\(worst.bytes)", 9) + pad(ok ? "PASS" : "MISS", 9) + worst.label)
        }
        print("target: worst ≤ \(Int(ratioTarget))x plain and ≤ \(Int(cpuTargetMicros)) µs CPU")
        print("\(passed) passed, \(failed) failed")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text + " " : text + String(repeating: " ", count: width - text.count)
    }

    static func threadCPUMicros() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) * 1e6 + Double(time.tv_nsec) / 1e3
    }

    // MARK: - The requests

    static let sydney = Coordinate(latitude: -33.87, longitude: 151.0)

    static func encoded(_ points: [Coordinate]) -> String {
        Polyline.encode(points).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    /// A drive as the bench's `along` row draws them: legs of 0.3-2 km, a wandering heading, from Sydney.
    static func drive(km: Double, legKm: ClosedRange<Double>, seed: UInt64, from start: Coordinate = sydney) -> [Coordinate] {
        var random = SeededRandom(seed: seed)
        var point = start, heading = random.uniform(0...(2 * Double.pi))
        var points = [point], length = 0.0
        while length < km {
            heading += random.uniform(-0.5...0.5)
            let step = random.uniform(legKm)
            point = stepped(point, km: step, heading: heading)
            points.append(point)
            length += step
        }
        return points
    }

    static func stepped(_ point: Coordinate, km: Double, heading: Double) -> Coordinate {
        let kmPerDegree = Coordinate.earthRadiusKm * Double.pi / 180
        return Coordinate(
            latitude: point.latitude + km * cos(heading) / kmPerDegree,
            longitude: point.longitude + km * sin(heading) / (kmPerDegree * point.cosLatitude))
    }

    /// The most points a request line of 8 KiB holds (with room for the spellings' `&`s) for `points` (each point's encoding is at least 2 bytes).
    static func fitting(_ points: [Coordinate], prefix: String, suffix: String) -> [Coordinate] {
        var count = min(points.count, AlongQuery.maximumPoints)
        while count > 2 && (prefix + encoded(Array(points.prefix(count))) + suffix).utf8.count > 7_900 { count -= 20 }
        return Array(points.prefix(count))
    }

    /// `limit`: 20 for the `along-worst` row (the route is what varies: a page as the plain request's), 500 for
    /// the endpoint's row (everything at its limit).
    static func alongRow(limit: Int, endpoint: String = "/v1/stations/along") -> Row {
        let plainRoute = drive(km: 80, legKm: 0.3...2, seed: 7)
        let along = "/v1/stations/along?polyline="
        func route(_ points: [Coordinate], _ rest: String) -> String {
            along + encoded(fitting(points, prefix: along, suffix: rest)) + rest
        }
        let still = Array(repeating: sydney, count: AlongQuery.maximumPoints)
        let zigZag = (0..<AlongQuery.maximumPoints).map { Coordinate(latitude: sydney.latitude + Double($0 % 2) * 0.00001, longitude: sydney.longitude) }
        let dateLine = (0..<AlongQuery.maximumPoints).map { Coordinate(latitude: -33.87, longitude: $0 % 2 == 0 ? 180 : -180) }
        // Dense like a directions polyline through the city, and as long as the limit allows, through Sydney.
        let dense = drive(km: 60, legKm: 0.02...0.05, seed: 11)
        let long = drive(km: 1_490, legKm: 0.7...0.8, seed: 13)
        var worst: [(String, String)] = []
        for detour in ["2", "5", "10", "20"] {
            let rest = "&detour_km=\(detour)&limit=\(limit)"
            worst.append(("along: 2,000 points on one spot, detour \(detour)", route(still, rest)))
            worst.append(("along: 1 m zig-zag, detour \(detour)", route(zigZag, rest)))
            worst.append(("along: dense city route, detour \(detour)", route(dense, rest)))
            worst.append(("along: 1,490 km route, detour \(detour)", route(long, rest)))
        }
        worst.append(("along: zig-zag over the antimeridian", route(dateLine, "&detour_km=20&limit=\(limit)")))
        worst.append(("along: dense, fuel, by price, detour 20", route(dense, "&detour_km=20&limit=\(limit)&fuel=U91&sort=price")))
        return Row(endpoint: endpoint, plain: route(plainRoute, "&fuel=U91&detour_km=2&sort=price&limit=20"), worst: worst)
    }

    static func rows() throws -> [Row] {
        let ids = (1...100).map(String.init).joined(separator: ",")
        let brands = ["Ampol", "BP", "Shell", "7-Eleven", "Caltex", "Metro", "United", "Liberty", "Mobil", "Coles Express"]
        return [
            Row(endpoint: "/v1/stations", plain: "/v1/stations?state=NSW&limit=50", worst: [
                ("stations: country-wide bbox, limit 500", "/v1/stations?bbox=-44,112,-10,154&limit=500"),
                ("stations: bbox, every filter, by fill cost", "/v1/stations?bbox=-44,112,-10,154&fuel=U91,E10,P95,P98,DL&sort=fill_cost&litres=200&limit=500&open_now=true"),
                ("stations: near 50 km by distance, limit 500", "/v1/stations?near=-33.87,151.0&radius_km=50&sort=distance&limit=500"),
                ("stations: cluster zoom 22, unpaged", "/v1/stations?state=NSW&fuel=U91&cluster=true&zoom=22"),
                ("stations: cluster zoom 22, every state", "/v1/stations?cluster=true&zoom=22"),
                ("stations: 100 ids", "/v1/stations?ids=\(ids)"),
                ("stations: q of 100 chars", "/v1/stations?q=" + String(repeating: "ab ", count: 33) + "a&limit=500"),
                ("stations: 100 brands excluded", "/v1/stations?exclude_brand=" + (0..<100).map { brands[$0 % brands.count].replacingOccurrences(of: " ", with: "%20") + "\($0)" }.joined(separator: ",") + "&limit=500"),
                ("stations: by name, limit 500, deep offset", "/v1/stations?sort=name&limit=500&offset=4000"),
            ]),
            alongRow(limit: 500),
            alongRow(limit: 20, endpoint: "along-worst (limit 20)"),
            Row(endpoint: "/v1/stations/:id", plain: "/v1/stations/1", worst: [
                ("station: 3370", "/v1/stations/3370"), ("station: 1", "/v1/stations/1"),
            ]),
            Row(endpoint: "/v1/stations/:id/history", plain: "/v1/stations/3370/history?fuel=U91&days=7", worst: [
                ("history: 90 days, every fuel", "/v1/stations/3370/history?days=90"),
            ]),
            Row(endpoint: "/v1/prices/cheapest", plain: "/v1/prices/cheapest?fuel=U91&state=NSW", worst: [
                ("cheapest: near 50 km, 100, by fill cost", "/v1/prices/cheapest?fuel=U91&near=-33.87,151.0&radius_km=50&limit=100&sort=fill_cost&litres=200&include_closed=true&include_members_only=true"),
                ("cheapest: state, 100, deep offset", "/v1/prices/cheapest?fuel=U91&state=NSW&limit=100&offset=1000"),
            ]),
            Row(endpoint: "/v1/prices/changes", plain: "/v1/prices/changes?limit=100", worst: [
                ("changes: 5,000 from the start", "/v1/prices/changes?since=2000-01-01T00:00:00Z&limit=5000"),
            ]),
            Row(endpoint: "/v1/averages", plain: "/v1/averages?state=NSW", worst: [("averages: every state", "/v1/averages")]),
            Row(endpoint: "/v1/trends", plain: "/v1/trends?state=VIC&fuel=U91&days=30", worst: [
                ("trends: 90 days", "/v1/trends?state=VIC&fuel=U91&days=90"),
                ("trends: every state and fuel", "/v1/trends?days=90"),
            ]),
            Row(endpoint: "/v1/tomorrow", plain: "/v1/tomorrow?state=WA&fuel=U91", worst: [
                ("tomorrow: every fuel, 500", "/v1/tomorrow?state=WA&limit=500"),
                ("tomorrow: 100 ids", "/v1/tomorrow?state=WA&ids=\(ids)"),
            ]),
            Row(endpoint: "/v1/summary", plain: "/v1/summary?state=NSW&fuel=U91", worst: [
                ("summary: near", "/v1/summary?state=NSW&fuel=U91&near=-33.87,151.0"),
            ]),
            Row(endpoint: "/v1/advice", plain: "/v1/advice?fuel=U91&city=sydney", worst: [
                ("advice: near", "/v1/advice?fuel=U91&near=-33.87,151.0"), ("advice: perth", "/v1/advice?fuel=U91&city=perth"),
            ]),
            Row(endpoint: "/v1/fuels", plain: "/v1/fuels", worst: [("fuels", "/v1/fuels")]),
            Row(endpoint: "/v1/brands", plain: "/v1/brands?state=NSW", worst: [("brands: every state", "/v1/brands")]),
        ]
    }
}
