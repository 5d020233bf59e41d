import HTTP

/// The friendly 404 for a share link whose station does not exist (or an id that is not one).
/// The same bytes for every request: nothing from the request is echoed.
enum NotFoundPage {
    static let body: [UInt8] = {
        var html = HTMLWriter(capacity: 2048)
        html.raw(PageChrome.documentStart)
        html.raw("""
            <title>Station not found · Petty</title>
            <meta name="robots" content="noindex">

            """)
        html.raw(PageChrome.headEnd)
        html.raw("""
            <main class="notfound">
            <h1>Station not found</h1>
            <p>This link does not point to a station we know. It may have been mistyped, or the station no longer reports prices.</p>
            <p><a href="/">Find fuel prices on Petty</a></p>

            """)
        PageChrome.writeEnd(provider: nil, into: &html)
        return html.bytes
    }()

    static func response() -> Response {
        Response(status: .notFound, headers: PageChrome.headers(status: .notFound), body: body)
    }
}
