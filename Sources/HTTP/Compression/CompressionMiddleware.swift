/// Serves gzip to clients that ask for it (`Accept-Encoding`, RFC 9110 §12.5.3): the stored variant of a body
/// rendered once (`Response.compressible`), else the body compressed on the fly at a fast level when it is at
/// least `minimumBytes`. Every response of a compressible type says `Vary: Accept-Encoding`, and the gzip
/// variant's ETag ends in `-gz`, so `If-None-Match` (answered outside this middleware) matches each encoding's
/// own validator. A client that refuses identity and gzip alike gets 406.
///
/// A request without `Accept-Encoding` for a stored body returns at once: such a body's owner sets `Vary` itself.
///
/// A body larger than `firstUseLimit` is sent as it is unless it was asked for before: compressing it costs more
/// than rendering it (a 450 KB list: 0.7 ms to render, 2.5 ms more at gzip level 1, `PettyBench worst`), so a
/// stream of distinct large URLs cannot make each request pay that. A stored body is compressed from its second
/// request on, once, and kept; a client that refuses identity still gets gzip.
public struct CompressionMiddleware: Middleware {
    public let minimumBytes: Int
    public let firstUseLimit: Int

    public static let defaultFirstUseLimit = 128 * 1024

    public init(minimumBytes: Int = 1024, firstUseLimit: Int = Self.defaultFirstUseLimit) {
        self.minimumBytes = minimumBytes
        self.firstUseLimit = firstUseLimit
    }

    public func respond(to request: Request, chainingTo next: Responder) throws -> Response {
        var response = try next.respond(to: request)
        // A body changed after the variant was attached no longer matches it.
        let stored = response.compressible.flatMap { $0.plain.count == response.body.count ? $0 : nil }
        let asked = request.headers.contains(name: "Accept-Encoding")
        if stored != nil && !asked { return response }
        guard !response.status.forbidsBody, !response.headers.contains(name: "Content-Encoding"),
              let type = response.headers.first(name: "Content-Type"), Self.isCompressible(type)
        else { return response }
        if !Self.variesOnEncoding(response.headers) { response.headers.add(name: "Vary", value: "Accept-Encoding") }
        guard asked else { return response }
        let accepted = AcceptEncoding(request.headers)
        switch accepted.choice(worthCompressing: stored != nil || response.body.count >= minimumBytes) {
        case .identity:
            return response
        case .none:
            throw Abort(.notAcceptable, reason: "This response is available as gzip or identity; Accept-Encoding refuses both")
        case .gzip:
            let limit = accepted.identity == 0 ? Int.max : firstUseLimit
            let compressed: [UInt8]?
            if let stored {
                compressed = stored.gzip(firstUseLimit: limit)
            } else {
                compressed = response.body.count > limit ? nil : Gzip.compress(response.body)
            }
            guard let compressed else { return response }
            let etag = stored?.gzipETag ?? response.headers.first(name: "ETag").map(CompressibleBody.gzipETag(for:))
            response.body = compressed
            response.compressible = nil
            response.headers.add(name: "Content-Encoding", value: "gzip")
            if let etag { response.headers.replaceOrAdd(name: "ETag", value: etag) }
            return response
        }
    }

    /// Text-like media types; images, fonts and archives are compressed already.
    static func isCompressible(_ contentType: String) -> Bool {
        // The common spellings first, compared as bytes in place (`hasPrefix` compares characters).
        if Self.startsWith(contentType, "application/json") || Self.startsWith(contentType, "text/") { return true }
        let type = contentType.lowercasedASCII()
        return type.hasPrefix("text/") || type.hasPrefix("application/json") || type.hasPrefix("application/javascript")
            || type.hasPrefix("application/xml") || type.hasPrefix("image/svg+xml") || type.hasPrefix("application/manifest+json")
            || type.hasPrefix("application/problem+json") || type.hasPrefix("application/openmetrics-text")
    }

    /// `value.hasSuffix("Accept-Encoding")` compared as bytes (`hasSuffix` compares characters): every response asks.
    private static func endsWithAcceptEncoding(_ value: String) -> Bool {
        HTTPHeaders.withUTF8(value) { bytes in
            let suffix: StaticString = "Accept-Encoding"
            guard bytes.count >= suffix.utf8CodeUnitCount else { return false }
            let start = bytes.count - suffix.utf8CodeUnitCount
            return (0..<suffix.utf8CodeUnitCount).allSatisfy { bytes[start + $0] == suffix.utf8Start[$0] }
        }
    }

    private static func startsWith(_ value: String, _ prefix: StaticString) -> Bool {
        HTTPHeaders.withUTF8(value) { bytes in
            guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
            return (0..<prefix.utf8CodeUnitCount).allSatisfy { bytes[$0] == prefix.utf8Start[$0] }
        }
    }

    /// Whether a `Vary` field already names `Accept-Encoding` (or `*`); the spelling this framework writes is
    /// matched without splitting the list.
    static func variesOnEncoding(_ headers: HTTPHeaders) -> Bool {
        var next = headers.firstIndex(name: "Vary")
        while let index = next {
            next = headers.firstIndex(name: "Vary", from: index + 1)
            let value = headers.fields[index].value
            // What this framework writes (`Accept-Encoding`, `Accept, Accept-Encoding`), without Foundation's search.
            if Self.endsWithAcceptEncoding(value) { return true }
            let listed = value.split(separator: ",").map { String($0).trimmingASCIIWhitespace() }
            if listed.contains(where: { $0 == "*" || HTTPHeaders.equalsIgnoringCase($0, "Accept-Encoding") }) { return true }
        }
        return false
    }
}
