import HTTP

/// The `Idempotency-Key` request header (IETF draft-ietf-httpapi-idempotency-key-header): an app names an alert
/// create with a key of its own (a UUID, say) and sends the same key again when it retries, so a create whose answer
/// was lost makes one alert, not two. Sent bare or as a quoted structured-field string; 1 to 255 visible ASCII
/// characters.
package struct IdempotencyKey: Sendable, Equatable {
    package static let header = "Idempotency-Key"
    package static let maxLength = 255

    package let text: String

    package init?(_ value: some StringProtocol) {
        var text = Substring(value)
        if text.count >= 2, text.first == "\"", text.last == "\"" { text = text.dropFirst().dropLast() }
        guard (1...Self.maxLength).contains(text.utf8.count), text.utf8.allSatisfy({ (0x21...0x7E).contains($0) && $0 != UInt8(ascii: "\"") }) else {
            return nil
        }
        self.text = String(text)
    }

    /// The request's key; nil when it sent none. A malformed or repeated header is a 400.
    static func of(_ request: Request) throws -> IdempotencyKey? {
        let values = request.headers[header]
        guard let value = values.first else { return nil }
        guard values.count == 1, let key = IdempotencyKey(value) else {
            throw Abort(.badRequest, reason: "\(header): one header of 1 to \(maxLength) visible ASCII characters (a UUID, say), the same on every retry of this create",
                        headers: ["Cache-Control": "no-store"])
        }
        return key
    }
}
