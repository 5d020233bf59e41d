import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTP
import Testing
@testable import API
@testable import App
@testable import Providers

@Suite(.serialized) struct MetricsEndpointTests {
    func get(_ port: Int, _ path: String) async throws -> (status: Int, body: String, contentType: String?) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        // A fresh connection per request, so the requests spread over both event loops.
        request.setValue("close", forHTTPHeaderField: "Connection")
        let (data, response) = try await URLSession.shared.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        return (http.statusCode, String(decoding: data, as: UTF8.self), http.value(forHTTPHeaderField: "Content-Type"))
    }

    /// The value of the one sample line named exactly `series` (name and labels).
    func value(_ series: String, in text: String) -> String? {
        let lines = text.split(separator: "\n").filter { $0.hasPrefix(series + " ") }
        return lines.count == 1 ? String(lines[0].dropFirst(series.count + 1)) : nil
    }

    /// A fresh app per test, so the counts are exactly this test's traffic; the sample cut to 50 stations per
    /// provider, since counting does not depend on the data and a full sample app renders thousands of stations.
    func freshApp() throws -> Application { try AppTestSupport.app(with: FollowerHarness.good) }

    @Test func aScrapeAfterKnownTrafficCountsEachRouteAndStatusExactly() async throws {
        let app = try freshApp()
        app.server.threads = 2
        let port = try app.startLive()
        defer { app.shutdown() }
        for id in [1, 2, 3, 1, 2] {
            #expect(try await get(port, "/v1/stations/\(id)").status == 200)
        }
        #expect(try await get(port, "/no/such/page").status == 404)

        let scrape = try await get(port, "/metrics")
        #expect(scrape.status == 200)
        #expect(scrape.contentType == "text/plain; version=0.0.4; charset=utf-8")
        let text = scrape.body
        #expect(value(#"petty_http_requests_total{route="/v1/stations/:id",status="200"}"#, in: text) == "5")
        #expect(value(#"petty_http_requests_total{route="unmatched",status="404"}"#, in: text) == "1")
        #expect(value(#"petty_http_request_duration_seconds_count{route="/v1/stations/:id"}"#, in: text) == "5")
        #expect(value(#"petty_http_request_duration_seconds_bucket{route="/v1/stations/:id",le="+Inf"}"#, in: text) == "5")
        #expect(value(#"petty_http_request_duration_seconds_count{route="unmatched"}"#, in: text) == "1")
        // The scrape is counted once it has been answered, never in its own answer.
        #expect(!text.contains(#"route="/metrics""#))
        #expect(Int(value("petty_http_open_connections", in: text) ?? "") ?? 0 >= 1)
        #expect(Int(value("petty_http_response_bytes_total", in: text) ?? "") ?? 0 > 5 * 500)
        #expect(value("petty_snapshot_version", in: text) == String(FollowerHarness.good.snapshot.version))
        #expect(value("petty_persistence_failures_total", in: text) == "0")
        #expect(Int(value("petty_process_resident_memory_bytes", in: text) ?? "") ?? 0 > 1 << 20)
        #expect(value("petty_process_uptime_seconds", in: text) != nil)

        let again = try await get(port, "/metrics")
        #expect(value(#"petty_http_requests_total{route="/metrics",status="200"}"#, in: again.body) == "1")
    }

    @Test func theHistogramsBucketsAreCumulativeAndEndAtTheCount() throws {
        let app = try freshApp()
        for _ in 0..<4 { try app.test(.GET, "/v1/stations/1") }
        let text = try app.test(.GET, "/metrics").bodyString
        let buckets = text.split(separator: "\n")
            .filter { $0.hasPrefix(#"petty_http_request_duration_seconds_bucket{route="/v1/stations/:id""#) }
            .compactMap { Int($0.split(separator: " ").last ?? "") }
        #expect(buckets.count == HTTPMetrics.durationBuckets.count + 1)
        #expect(buckets == buckets.sorted())
        #expect(buckets.last == 4)
    }

    @Test func onlyTheAddressesAllowedForInternalMayReadIt() throws {
        let relayed = try AppTestSupport.expectInternalOnly(AppTestSupport.sharedSampleApp(), "/metrics")
        #expect(!relayed.bodyString.contains("petty_"))
    }
}

@Suite struct FuelMetricsTests {
    @Test func pollOutcomesArePerProviderWithEveryOutcomeListed() throws {
        let polls = PollStats()
        polls.record(.ok, for: .wa, seconds: 0.5)
        polls.record(.ok, for: .wa, seconds: 0.25)
        polls.record(.failed, for: .wa, seconds: 1)
        let context = PettyContext(store: makePettyStore(FollowerHarness.good), clock: { Date() }, startedAt: Date(), appStoreID: nil)
        var out = PrometheusText()
        FuelMetrics(context: context, polls: polls).write(to: &out, now: Date())
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines.contains(#"petty_provider_polls_total{provider="wa",outcome="ok"} 2"#))
        #expect(lines.contains(#"petty_provider_polls_total{provider="wa",outcome="failed"} 1"#))
        #expect(lines.contains(#"petty_provider_polls_total{provider="wa",outcome="rejected"} 0"#))
        #expect(lines.contains(#"petty_provider_poll_duration_seconds_count{provider="wa"} 3"#))
        #expect(lines.contains(#"petty_provider_poll_duration_seconds_sum{provider="wa"} 1.75"#))
        #expect(lines.filter { $0 == "# TYPE petty_provider_polls_total counter" }.count == 1)
    }
}
