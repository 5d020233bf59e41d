import Synchronization

/// A body served many times (rendered once per snapshot): its gzip is kept beside the plain bytes, together with
/// the ETag each encoding is served with. The first client to ask gets it at the fast per-request level, made for
/// it and not kept; the second and later get it at a better level, made once and kept. A body asked for once (a
/// distinct URL, as a client crawling every one of them sends) then costs what a per-request gzip costs, and one
/// served many times still travels small. Both decode to the same bytes, so they share the `-gz` ETag, which is
/// therefore weak (`W/`) whatever the plain one is: a strong validator promises the same bytes (RFC 9110 §8.8.1),
/// and the two gzips are not.
///
/// Attach it with `Response(status:headers:compressible:)`; `CompressionMiddleware` then serves the stored gzip.
public final class CompressibleBody: Sendable {
    public let plain: [UInt8]
    /// The gzip variant's ETag, derived once from the plain one and weak (nil without an ETag).
    public let gzipETag: String?
    private let gzipped: Mutex<Gzipped>

    private struct Gzipped {
        var kept: [UInt8]?
        var asked = 0
    }

    public init(_ plain: [UInt8], etag: String?, gzip: [UInt8]? = nil) {
        self.plain = plain
        gzipETag = etag.map { etag in
            let gzip = Self.gzipETag(for: etag)
            return gzip.hasPrefix("W/") ? gzip : "W/" + gzip
        }
        gzipped = Mutex(Gzipped(kept: gzip))
    }

    /// The gzip bytes: at `Gzip.fastLevel` the first time; then at `Gzip.storedLevel`, compressed on the second
    /// use (outside the lock; a racing request may compress too) and kept.
    public var gzip: [UInt8] { gzip(firstUseLimit: .max)! }

    /// `gzip`, except that a body larger than `firstUseLimit` is not compressed for its first client (nil: send
    /// it as it is); from its second on it is compressed once and kept.
    public func gzip(firstUseLimit: Int) -> [UInt8]? {
        let (kept, asked) = gzipped.withLock { state in
            state.asked += 1
            return (state.kept, state.asked)
        }
        if let kept { return kept }
        guard asked > 1 else { return plain.count > firstUseLimit ? nil : Gzip.compress(plain, level: Gzip.fastLevel) }
        let compressed = Gzip.compress(plain, level: Gzip.storedLevel)
        return gzipped.withLock { state in
            if state.kept == nil { state.kept = compressed }
            return state.kept!
        }
    }

    /// Whether the better gzip is made and kept (for tests).
    var keepsGzip: Bool { gzipped.withLock { $0.kept != nil } }

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
