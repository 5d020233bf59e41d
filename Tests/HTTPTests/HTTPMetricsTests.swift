import Testing
@testable import HTTP

@Suite struct HTTPMetricsTests {
    @Test func eachLoopCountsApartAndAScrapeSumsThem() {
        let metrics = HTTPMetrics(routePatterns: ["/a/:id", "/b"], loops: 2)
        let a = metrics.slot(for: "/a/:id")
        metrics.record(slot: a, status: 200, micros: 300, loop: 0)
        metrics.record(slot: a, status: 200, micros: 2_000, loop: 1)
        metrics.record(slot: a, status: 404, micros: 10, loop: 1)
        metrics.record(slot: metrics.slot(for: nil), status: 405, micros: 10, loop: 0)
        metrics.recordBytesSent(100, loop: 0)
        metrics.recordBytesSent(23, loop: 1)
        let snapshot = metrics.snapshot()
        #expect(snapshot.requests == [
            .init(route: "/a/:id", status: 200, count: 2),
            .init(route: "/a/:id", status: 404, count: 1),
            .init(route: HTTPMetrics.unmatchedRoute, status: 405, count: 1),
        ])
        #expect(snapshot.bytesSent == 123)
        let histogram = try! #require(snapshot.durations.first { $0.route == "/a/:id" })
        #expect(histogram.count == 3)
        #expect(abs(histogram.sumSeconds - 0.00231) < 1e-9)
        // Bounds 0.0005, 0.001, 0.0025, ...: 10 µs and 300 µs in the first, 2 ms in the third.
        #expect(Array(histogram.cumulativeCounts.prefix(4)) == [2, 2, 3, 3])
        #expect(histogram.cumulativeCounts.last == 3)
    }

    @Test func theExpositionHasOneHelpAndTypePerFamilyAndEscapesLabels() {
        var out = PrometheusText()
        out.family("x_total", .counter, help: "A \\ help\nline.")
        out.sample("x_total", 3, labels: [("route", #"/a"b\c"#)])
        out.sample("x_total", 0.25, labels: [("route", "line\nbreak")])
        #expect(out.text == """
            # HELP x_total A \\\\ help\\nline.
            # TYPE x_total counter
            x_total{route="/a\\"b\\\\c"} 3
            x_total{route="line\\nbreak"} 0.25

            """)
    }

    @Test func aLiveServerCountsOnTheLoopThatAnswered() throws {
        let app = makeTestApp()
        try withLiveServer(app) { port in
            for _ in 0..<3 {
                let client = try RawClient(port: port)
                try client.send("GET /items/7 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                _ = client.readUntilClosed()
            }
            let snapshot = app.metrics.snapshot()
            #expect(snapshot.requests == [.init(route: "/items/:id", status: 200, count: 3)])
            #expect(snapshot.bytesSent > 3 * 50)
        }
    }
}
