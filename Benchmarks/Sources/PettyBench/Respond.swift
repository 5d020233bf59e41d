import App
import Foundation
import HTTP

/// What the server spends above its sockets on each of a list of URLs: the request parsed and answered by the
/// application a `serve` of `--data-dir` builds, in memory, once per URL per pass. The wrk rows measure this
/// plus the kernel on a shared, noisy machine; this isolates the part Petty's code decides, so a change of a few
/// percent in it shows.
///   PettyBench respond --urls FILE --data-dir DIR [--runs 9]
/// FILE holds the URLs quoted, one per line, as the bench's wrk scripts do (`"/v1/...",`).
enum Respond {
    static func run(_ options: Options) throws {
        guard let path = options.string("urls") else { throw BenchError("respond needs --urls FILE") }
        guard let dataDirectory = options.string("data-dir") else { throw BenchError("respond needs --data-dir DIR") }
        let runs = try options.int("runs", default: 9)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let urls = text.split(separator: "\n").compactMap { line -> String? in
            guard let start = line.firstIndex(of: "\""), let end = line[line.index(after: start)...].firstIndex(of: "\"") else { return nil }
            let url = String(line[line.index(after: start)..<end])
            return url.hasPrefix("/") ? url : nil
        }
        guard !urls.isEmpty else { throw BenchError("no quoted URLs in \(path)") }
        let (_, config) = try CommandLineParser.parse(
            ["serve", "--env", "production", "--data-dir", dataDirectory, "--log-level", "error"],
            environment: ["PETTY_PROVIDERS": "none"])
        let app = try buildApplication(config).app

        var perRequest: [Double] = []
        var bytes = 0
        for _ in 0..<runs {
            bytes = 0
            let start = ProcStats.millis()
            for url in urls { bytes += try app.test(.GET, url).body.count }
            perRequest.append((ProcStats.millis() - start) * 1000 / Double(urls.count))
        }
        print("respond: \(urls.count) URLs from \(path), \(bytes / urls.count) body bytes on average, \(runs) passes")
        print("per request median \(fixed(median(perRequest), 2)) µs  min \(fixed(perRequest.min() ?? 0, 2)) µs")
    }
}
