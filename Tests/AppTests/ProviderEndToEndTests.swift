import Foundation
import Fuel
import HTTP
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// The real `Run serve` binary, polling fake NSW and WA providers on loopback (started in this process), serves
/// their data as live and reports them ok on `/health`. Skipped when the binary has not been built.
@Suite(.serialized, .timeLimit(.minutes(2)), .longScenario)
struct ProviderEndToEndTests {
    static let packageRoot: URL = {
        var url = URL(fileURLWithPath: #filePath)
        while url.pathComponents.count > 1 {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return url
    }()

    /// `Run` beside the test bundle (same build configuration), else `.build/debug/Run`.
    static let binary: String? = {
        let beside = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).deletingLastPathComponent().appendingPathComponent("Run").path
        let candidates = [beside, packageRoot.appendingPathComponent(".build/debug/Run").path]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: packageRoot.appendingPathComponent("Tests/ProvidersTests/Fixtures/\(name)"))
    }

    /// Fake NSW (token, full list, deltas) and WA (RSS today; tomorrow not yet published) on one loopback server.
    static func fakeProviders(tokenCalls: Counter) throws -> Application {
        let nsw = Array(try fixture("nsw_v1_fuel_prices.subset.json"))
        let today = WATradingDay.tradingDay(containing: Date())
        let rss = String(decoding: try fixture("wa_fuelWatchRSS_today_metro_ULP.xml"), as: UTF8.self)
            .replacingOccurrences(of: #"<date>[0-9-]+</date>"#, with: "<date>\(today)</date>", options: .regularExpression)
        let app = Application(environment: .testing, logger: Logger(label: "fake", level: .critical, sink: .inMemory()))
        app.server.threads = 2
        app.get("oauth", "client_credential", "accesstoken") { request -> Response in
            tokenCalls.increment()
            guard request.headers.first(name: "Authorization")?.hasPrefix("Basic ") == true else { return Response(status: .unauthorized) }
            return Response(contentType: "application/json", body: Array(#"{"access_token":"e2e-token","expires_in":"43199"}"#.utf8))
        }
        app.get("FuelPriceCheck", "v1", "fuel", "prices") { request -> Response in
            guard request.headers.first(name: "Authorization") == "Bearer e2e-token" else { return Response(status: .unauthorized) }
            return Response(contentType: "application/json", body: nsw)
        }
        app.get("FuelPriceCheck", "v1", "fuel", "prices", "new") { _ in
            Response(contentType: "application/json", body: Array(#"{"stations":[],"prices":[]}"#.utf8))
        }
        app.get("fuelwatch", "fuelWatchRSS") { request -> Response in
            let body = request.query["Day"] == "tomorrow"
                ? #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>t</title></channel></rss>"#
                : rss
            return Response(contentType: "text/xml", body: Array(body.utf8))
        }
        return app
    }

    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw TestFailure("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func get(_ url: String) async -> (Int, [String: Any])? {
        var request = URLRequest(url: URL(string: url)!, timeoutInterval: 5)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        guard let (data, response) = try? await URLSession.shared.data(for: request),
              let http = response as? HTTPURLResponse else { return nil }
        return (http.statusCode, (try? JSONSerialization.jsonObject(with: data) as? [String: Any]) ?? [:])
    }

    @Test(.enabled(if: binary != nil, "build the Run product first (swift build)"))
    func theServeBinaryPollsFakeProvidersAndServesTheirDataAsLive() async throws {
        let tokenCalls = Counter()
        let fake = try Self.fakeProviders(tokenCalls: tokenCalls)
        let fakePort = try fake.startLive()
        defer { fake.shutdown() }
        let port = try Self.freePort()
        let dataDir = AppTestSupport.temporaryDirectory()
        let logPath = dataDir + "/serve.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        let log = try FileHandle(forWritingTo: URL(fileURLWithPath: logPath))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.binary))
        process.arguments = ["serve", "--port", String(port), "--data-dir", dataDir + "/data", "--threads", "2"]
        process.environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "PETTY_PROVIDERS": "wa,nsw",
            "PETTY_NSW_API_KEY": "e2e-dummy-key",
            "PETTY_NSW_API_SECRET": "e2e-dummy-secret",
            "PETTY_NSW_BASE_URL": "http://127.0.0.1:\(fakePort)",
            "PETTY_WA_BASE_URL": "http://127.0.0.1:\(fakePort)",
            "PETTY_NSW_POLL_SECONDS": "60",
            "PETTY_WA_POLL_SECONDS": "60",
            "PETTY_PROVIDER_TIMEOUT_SECONDS": "5",
            "PETTY_PUBLIC_DIR": AppTestSupport.publicDirectory,
        ]
        process.standardOutput = log
        process.standardError = log
        try process.run()
        defer { Self.stop(process) }

        // Wait until both providers have answered (sample seeding comes first; WA spaces its 7 requests).
        let base = "http://127.0.0.1:\(port)"
        var providers: [String: [String: Any]] = [:]
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let (_, health) = await Self.get(base + "/health"), let list = health["providers"] as? [[String: Any]] {
                providers = Dictionary(list.map { ($0["provider"] as? String ?? "", $0) }, uniquingKeysWith: { $1 })
                if providers["nsw"]?["source"] as? String == "live", providers["wa"]?["source"] as? String == "live" { break }
            }
            try await Task.sleep(nanoseconds: 250_000_000)
        }
        let logText = { String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: logPath))) ?? Data(), as: UTF8.self) }
        // The NSW fake replays January 2026's recorded feed: polled fine, but by the wall clock every price is past
        // NSW's two quiet days, so an operator is told it is stale (WA's fake dates its feed today).
        #expect(providers["nsw"]?["status"] as? String == "stale", "log:\n\(logText())")
        #expect(providers["nsw"]?["consecutive_failures"] as? Int == 0)
        #expect(providers["wa"]?["status"] as? String == "ok")
        #expect(providers["nsw"]?["next_poll"] is String, "\(providers["nsw"] ?? [:])")
        #expect(providers["nsw"]?["stations"] as? Int == 15)

        let nsw = try #require(await Self.get(base + "/v1/stations?state=NSW&limit=100"))
        #expect(nsw.0 == 200)
        let nswText = String(describing: nsw.1)
        #expect(nswText.contains("United Petroleum Umina"))
        #expect(nswText.contains("live"))
        let wa = try #require(await Self.get(base + "/v1/stations?state=WA&limit=500"))
        #expect(String(describing: wa.1).contains("United Byford"))
        #expect(tokenCalls.value == 1)

        // The log line follows the merge by a moment.
        let logDeadline = Date().addingTimeInterval(10)
        while !(logText().contains("poll wa ok: ") && logText().contains("poll nsw ok: ")) && Date() < logDeadline {
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        let text = logText()
        #expect(text.contains("providers: nsw (full daily, deltas every 60s") && text.contains(", wa (every 60s"), "\(text)")
        #expect(text.contains("poll nsw ok: 15 stations"))
        #expect(text.contains("poll wa ok: "))
        #expect(!text.contains("e2e-dummy-secret") && !text.contains("e2e-token"))

        // SIGTERM stops pollers and server promptly.
        let stopping = Date()
        process.terminate()
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(stopping) < 10)
        #expect(process.terminationStatus == 0)
        #expect(logText().contains("pollers stopped"))
    }

    static func stop(_ process: Process) {
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
