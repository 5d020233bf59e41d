import App
import Foundation
import HTTP

/// What the server spends above its sockets on each of a list of requests: the request parsed and answered by the
/// application a `serve` of `--data-dir` builds, in memory, once per request per pass. The wrk rows measure this
/// plus the kernel on a shared, noisy machine; this isolates the part Petty's code decides, so a change of a few
/// percent in it shows.
///   PettyBench respond --urls FILE --data-dir DIR [--runs 9] [--fresh 1]
/// FILE holds the URLs quoted, one per line, as the bench's wrk scripts do (`"/v1/...",`), or, as the POST
/// scripts do, a quoted path and a `[==[body]==]` (`{"/v1/stations/along", [==[{...}]==]},`), POSTed as JSON.
/// `--fresh 1` spells every request differently on each pass (trailing `&`s on a URL, trailing spaces after a
/// body; every endpoint ignores both), so none is answered from the response memo: the cost of a request
/// nobody asked before.
enum Respond {
    struct Call {
        let url: String
        let body: String?
    }

    static func run(_ options: Options) throws {
        guard let path = options.string("urls") else { throw BenchError("respond needs --urls FILE") }
        guard let dataDirectory = options.string("data-dir") else { throw BenchError("respond needs --data-dir DIR") }
        let runs = try options.int("runs", default: 9)
        let fresh = try options.int("fresh", default: 0) != 0
        let calls = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap(call(in:))
        guard !calls.isEmpty else { throw BenchError("no quoted URLs in \(path)") }
        let (_, config) = try CommandLineParser.parse(
            ["serve", "--env", "production", "--data-dir", dataDirectory, "--log-level", "error"],
            environment: ["PETTY_PROVIDERS": "none"])
        let app = try buildApplication(config).app
        let json: HTTPHeaders = ["Content-Type": "application/json"]

        var perRequest: [Double] = []
        var cpuPerRequest: [Double] = []
        var bytes = 0
        for pass in 0..<runs {
            // Spelled for this pass before the clock starts.
            let spelled = calls.map { call -> (String, [UInt8]?) in
                let padding = fresh ? pass + 1 : 0
                guard let body = call.body else { return (call.url + String(repeating: "&", count: padding), nil) }
                return (call.url, Array((body + String(repeating: " ", count: padding)).utf8))
            }
            bytes = 0
            let start = ProcStats.millis()
            let cpuStart = WorstCase.threadCPUMicros()
            for (url, body) in spelled {
                if let body {
                    bytes += try app.test(.POST, url, headers: json, body: body).body.count
                } else {
                    bytes += try app.test(.GET, url).body.count
                }
            }
            perRequest.append((ProcStats.millis() - start) * 1000 / Double(calls.count))
            cpuPerRequest.append((WorstCase.threadCPUMicros() - cpuStart) / Double(calls.count))
        }
        print("respond: \(calls.count) requests from \(path)\(fresh ? ", each spelled anew per pass" : ""), "
            + "\(bytes / calls.count) body bytes on average, \(runs) passes")
        print("per request median \(fixed(median(perRequest), 2)) µs  min \(fixed(perRequest.min() ?? 0, 2)) µs")
        print("CPU per request (this thread) median \(fixed(median(cpuPerRequest), 2)) µs  min \(fixed(cpuPerRequest.min() ?? 0, 2)) µs")
    }

    private static func call(in line: Substring) -> Call? {
        guard let start = line.firstIndex(of: "\""), let end = line[line.index(after: start)...].firstIndex(of: "\"") else { return nil }
        let url = String(line[line.index(after: start)..<end])
        guard url.hasPrefix("/") else { return nil }
        guard let open = line.range(of: "[==["), let close = line.range(of: "]==]", options: .backwards) else {
            return Call(url: url, body: nil)
        }
        return Call(url: url, body: String(line[open.upperBound..<close.lowerBound]))
    }
}
