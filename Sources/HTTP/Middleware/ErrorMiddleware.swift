/// Turns every thrown error into a JSON response: `{"error": true, "reason": "..."}`.
/// `AbortError`s show their reason; anything else is a 500 whose details appear only outside production.
public struct ErrorMiddleware: Middleware {
    let revealDetails: Bool
    let logger: Logger

    public init(revealDetails: Bool, logger: Logger) {
        self.revealDetails = revealDetails
        self.logger = logger
    }

    public func respond(to request: Request, chainingTo next: Responder) throws -> Response {
        do {
            return try next.respond(to: request)
        } catch {
            if !(error is AbortError) {
                logger.error("\(request.method) \(request.path) [\(request.id)] failed: \(error)")
            }
            return ErrorRendering.response(for: error, request: request, revealDetails: revealDetails)
        }
    }
}

public enum ErrorRendering {
    public static func response(for error: Error, request: Request?, revealDetails: Bool) -> Response {
        let status: HTTPStatus
        let reason: String
        var headers: HTTPHeaders
        if let abort = error as? AbortError {
            status = abort.status
            reason = abort.reason
            headers = abort.headers
        } else {
            status = .internalServerError
            reason = revealDetails ? "\(error)" : "Something went wrong on our side"
            headers = [:]
        }
        headers.replaceOrAdd(name: "Content-Type", value: "application/json; charset=utf-8")
        headers.replaceOrAdd(name: "Cache-Control", value: "no-store")
        headers.replaceOrAdd(name: "X-Content-Type-Options", value: "nosniff")
        return Response(status: status, headers: headers, body: body(reason: reason))
    }

    /// `{"error":true,"reason":"..."}` with the reason JSON-escaped.
    public static func body(reason: String) -> [UInt8] {
        var bytes = Array(#"{"error":true,"reason":""#.utf8)
        JSONEscaping.append(reason, to: &bytes)
        bytes.append(contentsOf: #""}"#.utf8)
        return bytes
    }
}

/// JSON string escaping without Foundation, for hand-assembled bodies.
public enum JSONEscaping {
    public static func append(_ string: String, to bytes: inout [UInt8]) {
        for byte in string.utf8 {
            switch byte {
            case 0x22: bytes.append(contentsOf: [0x5C, 0x22])
            case 0x5C: bytes.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: bytes.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: bytes.append(contentsOf: [0x5C, 0x72])
            case 0x09: bytes.append(contentsOf: [0x5C, 0x74])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
    }
}
