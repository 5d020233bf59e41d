import Fuel
import HTTP

/// 410 Gone for a station this server once listed and no longer does: `{"error": true, "reason": ..., "removed_at":
/// ...}` (null once the change log no longer holds the instant), or on a share page "This station has closed".
enum RemovedStationResponse {
    static func json(_ removed: Dataset.RemovedStation) -> Response {
        var json = JSONWriter(capacity: 128)
        json.raw("{\"error\":true,\"reason\":\"Station ")
        json.int(removed.id.rawValue)
        json.raw(" has closed or is no longer listed by its provider\",\"removed_at\":")
        if let at = removed.removedAt { json.string(ISOTimestamp.string(at)) } else { json.null() }
        json.raw("}")
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.add(name: "Cache-Control", value: "public, max-age=300")
        return Response(status: HTTPStatus(code: 410), headers: headers, body: json.bytes)
    }

    static func html() -> Response {
        Response(status: HTTPStatus(code: 410), headers: PageChrome.headers(status: HTTPStatus(code: 410)), body: page)
    }

    private static let page: [UInt8] = {
        var html = HTMLWriter(capacity: 2048)
        html.raw(PageChrome.documentStart)
        html.raw("""
            <title>Station closed · Petty</title>
            <meta name="robots" content="noindex">

            """)
        html.raw(PageChrome.headEnd)
        html.raw("""
            <main class="notfound">
            <h1>This station has closed</h1>
            <p>Its provider no longer lists it, so Petty has no prices for it.</p>
            <p><a href="/">Find fuel prices nearby on Petty</a></p>

            """)
        PageChrome.writeEnd(provider: nil, into: &html)
        return html.bytes
    }()
}
