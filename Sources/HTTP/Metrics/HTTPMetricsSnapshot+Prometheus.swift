extension HTTPMetricsSnapshot {
    /// The HTTP families, named `<namespace>_http_...`.
    public func write(to out: inout PrometheusText, namespace: String) {
        let requests = "\(namespace)_http_requests_total"
        out.family(requests, .counter, help: "Requests answered, by route pattern and status.")
        for entry in self.requests {
            out.sample(requests, Double(entry.count), labels: [("route", entry.route), ("status", String(entry.status))])
        }
        let duration = "\(namespace)_http_request_duration_seconds"
        out.family(duration, .histogram, help: "Time to produce a response, middleware included, by route pattern.")
        for histogram in durations {
            let bounds = HTTPMetrics.durationBuckets.map { PrometheusText.format($0) } + ["+Inf"]
            for (bound, count) in zip(bounds, histogram.cumulativeCounts) {
                out.sample(duration + "_bucket", Double(count), labels: [("route", histogram.route), ("le", bound)])
            }
            out.sample(duration + "_sum", histogram.sumSeconds, labels: [("route", histogram.route)])
            out.sample(duration + "_count", Double(histogram.count), labels: [("route", histogram.route)])
        }
        let refused = "\(namespace)_http_refused_requests_total"
        out.family(refused, .counter, help: "Requests refused before routing (malformed, too large, too slow), by status.")
        for entry in refusals {
            out.sample(refused, Double(entry.count), labels: [("status", String(entry.status))])
        }
        let connections = "\(namespace)_http_open_connections"
        out.metric(connections, .gauge, value: Double(openConnections), help: "Client connections open now.")
        let bytes = "\(namespace)_http_response_bytes_total"
        out.metric(bytes, .counter, value: Double(bytesSent), help: "Bytes written to clients (heads and bodies).")
    }
}
