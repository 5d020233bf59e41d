/// What a test sees of a response.
public struct TestResponse: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public var bodyString: String { String(decoding: body, as: UTF8.self) }

    public func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONCoding.decode(type, from: body)
    }
}

extension Application {
    /// Sends a request through the same parser and responder the server uses, in memory.
    /// `path` may include a query string. A `Host` header is added unless given.
    @discardableResult
    public func test(
        _ method: HTTPMethod, _ path: String, headers: HTTPHeaders = [:], body: [UInt8] = [],
        peer: String = "127.0.0.1",
        afterResponse: (TestResponse) throws -> Void = { _ in }
    ) throws -> TestResponse {
        var raw = "\(method.rawValue) \(path) HTTP/1.1\r\n"
        if !headers.contains(name: "Host") { raw += "Host: test\r\n" }
        for (name, value) in headers { raw += "\(name): \(value)\r\n" }
        if !body.isEmpty { raw += "Content-Length: \(body.count)\r\n" }
        raw += "\r\n"
        let bytes = Array(raw.utf8) + body
        let response: Response
        switch HTTPRequestParser(limits: server.limits).parse(bytes) {
        case .complete(let head, let parsedBody, _):
            var request = Request(head: head, body: parsedBody, peerAddress: peer)
            request.clientAddress = peer
            response = try responder.respond(to: request)
        case .needMore:
            throw Abort(.badRequest, reason: "test request is incomplete")
        case .failure(let error):
            response = ErrorRendering.response(for: Abort(error.status, reason: error.reason), request: nil, revealDetails: false)
        }
        let result = TestResponse(
            status: response.status, headers: response.headers,
            body: method == .HEAD ? [] : response.body
        )
        try afterResponse(result)
        return result
    }

    /// Starts the real server on a free loopback port and returns the port. Call `shutdown()` when done.
    public func startLive(host: String = "127.0.0.1") throws -> Int {
        server.hostname = host
        server.port = 0
        try start()
        return boundPort ?? 0
    }
}
