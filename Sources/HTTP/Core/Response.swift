/// A response value. The server adds `Date`, `Content-Length` and `Connection`; HEAD responses lose their body on the wire.
public struct Response: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The body's stored encodings, when it is rendered once and served many times (`CompressibleBody`).
    /// Whoever changes `body` afterwards must clear it.
    public var compressible: CompressibleBody?

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: HTTPStatus = .ok, contentType: String, body: [UInt8]) {
        self.init(status: status, headers: ["Content-Type": contentType], body: body)
    }

    public init(status: HTTPStatus = .ok, text: String) {
        self.init(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }
}

extension Response {
    /// A handler asked for the connection to close after this response.
    var forcesClose: Bool { headers.containsToken("close", name: "Connection") }
}
