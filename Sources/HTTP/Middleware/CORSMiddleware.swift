/// Lets browsers on other origins call the API: answers preflights and marks responses.
public struct CORSMiddleware: Middleware {
    public var allowedOrigin: String
    public var allowedMethods: [HTTPMethod]
    public var allowedHeaders: [String]
    /// Response headers a page's script may read besides the safelisted ones.
    public var exposedHeaders: [String]
    public var maxAgeSeconds: Int

    public static let defaultAllowedHeaders = ["Accept", "Authorization", "Content-Type", "If-Modified-Since", "If-None-Match"]
    public static let defaultExposedHeaders = ["ETag", "Last-Modified", "Retry-After"]

    public init(
        allowedOrigin: String = "*", allowedMethods: [HTTPMethod] = [.GET, .HEAD, .OPTIONS],
        allowedHeaders: [String] = defaultAllowedHeaders, exposedHeaders: [String] = defaultExposedHeaders,
        maxAgeSeconds: Int = 600
    ) {
        self.allowedOrigin = allowedOrigin
        self.allowedMethods = allowedMethods
        self.allowedHeaders = allowedHeaders
        self.exposedHeaders = exposedHeaders
        self.maxAgeSeconds = maxAgeSeconds
    }

    public func respond(to request: Request, chainingTo next: Responder) throws -> Response {
        guard request.headers.contains(name: "Origin") else { return try next.respond(to: request) }
        if request.method == .OPTIONS && request.headers.contains(name: "Access-Control-Request-Method") {
            var response = Response(status: .noContent)
            response.headers.add(name: "Access-Control-Allow-Methods", value: allowedMethods.map(\.rawValue).joined(separator: ", "))
            response.headers.add(name: "Access-Control-Allow-Headers", value: allowedHeaders.joined(separator: ", "))
            response.headers.add(name: "Access-Control-Max-Age", value: String(maxAgeSeconds))
            decorate(&response)
            return response
        }
        var response = try next.respond(to: request)
        decorate(&response)
        return response
    }

    private func decorate(_ response: inout Response) {
        response.headers.replaceOrAdd(name: "Access-Control-Allow-Origin", value: allowedOrigin)
        response.headers.replaceOrAdd(name: "Access-Control-Expose-Headers", value: exposedHeaders.joined(separator: ", "))
        if allowedOrigin != "*" { response.headers.add(name: "Vary", value: "Origin") }
    }
}
