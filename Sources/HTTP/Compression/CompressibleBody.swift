import Synchronization

/// A body served many times (rendered once per snapshot): its gzip is made the first time a client asks, at a
/// better level than per-request compression can afford, and kept beside the plain bytes, together with the ETag
/// each encoding is served with.
///
/// Attach it with `Response(status:headers:compressible:)`; `CompressionMiddleware` then serves the stored gzip.
public final class CompressibleBody: Sendable {
    public let plain: [UInt8]
    /// The gzip variant's ETag, derived once from the plain one (nil without an ETag).
    public let gzipETag: String?
    private let gzipped: Mutex<[UInt8]?>

    public init(_ plain: [UInt8], etag: String?, gzip: [UInt8]? = nil) {
        self.plain = plain
        gzipETag = etag.map(Self.gzipETag(for:))
        gzipped = Mutex(gzip)
    }

    /// The gzip bytes: compressed on first use (outside the lock; a racing request may compress too), then kept.
    public var gzip: [UInt8] {
        if let stored = gzipped.withLock({ $0 }) { return stored }
        let compressed = Gzip.compress(plain, level: Gzip.storedLevel)
        return gzipped.withLock { stored in
            if stored == nil { stored = compressed }
            return stored!
        }
    }

    /// `"abc"` -> `"abc-gz"`, `W/"abc"` -> `W/"abc-gz"`: each encoding is its own representation (RFC 9110 §8.8.3),
    /// so a cache never matches one encoding's validator against the other's bytes.
    public static func gzipETag(for etag: String) -> String {
        guard etag.hasSuffix("\""), etag.count >= 2 else { return etag + "-gz" }
        return String(etag.dropLast()) + "-gz\""
    }
}

extension Response {
    /// A response whose body is `compressible.plain`, with the gzip variant at hand.
    public init(status: HTTPStatus = .ok, headers: HTTPHeaders, compressible: CompressibleBody) {
        self.init(status: status, headers: headers, body: compressible.plain)
        self.compressible = compressible
    }
}
