/// What a request's `Accept-Encoding` allows (RFC 9110 §12.5.3), reduced to the codings this server has:
/// gzip and identity. Weights are in thousandths (`q=0.5` is 500); 0 means "not acceptable".
public struct AcceptEncoding: Equatable, Sendable {
    public var gzip: Int
    public var identity: Int

    /// No `Accept-Encoding` field: the client did not ask for compression, so it gets none.
    public static let unspecified = AcceptEncoding(gzip: 0, identity: 1000)

    public init(gzip: Int, identity: Int) {
        self.gzip = gzip
        self.identity = identity
    }

    /// Every `Accept-Encoding` line of the request, read as one list.
    public init(_ headers: HTTPHeaders) {
        var explicitGzip: Int?, explicitIdentity: Int?, any: Int?
        var present = false
        for (name, value) in headers where HTTPHeaders.equalsIgnoringCase(name, "Accept-Encoding") {
            present = true
            for element in value.split(separator: ",") {
                guard let (coding, weight) = Self.element(element) else { continue }
                switch coding {
                // §8.4.1.3: x-gzip is gzip.
                case "gzip", "x-gzip": explicitGzip = max(explicitGzip ?? 0, weight)
                case "identity": explicitIdentity = weight
                case "*": any = weight
                default: break
                }
            }
        }
        guard present else { self = .unspecified; return }
        // `*` stands for every coding not named; identity stays acceptable unless `identity;q=0`, or `*;q=0`
        // without an entry of its own, excludes it.
        gzip = explicitGzip ?? any ?? 0
        identity = explicitIdentity ?? (any == 0 ? 0 : 1000)
    }

    public enum Choice: Equatable, Sendable {
        case identity
        case gzip
        /// Neither coding is acceptable: 406.
        case none
    }

    /// `worthCompressing`: the server would rather send gzip (a large or precompressed body of a compressible type).
    /// Otherwise gzip is sent only when the client refuses identity.
    public func choice(worthCompressing: Bool) -> Choice {
        if worthCompressing, gzip > 0, gzip >= identity { return .gzip }
        if identity > 0 { return .identity }
        return gzip > 0 ? .gzip : .none
    }

    /// `coding [ OWS ";" OWS "q=" qvalue ]`, the coding lowercased; nil for an empty or malformed element.
    static func element(_ raw: Substring) -> (String, Int)? {
        let parts = raw.split(separator: ";", omittingEmptySubsequences: false)
        let coding = String(parts[0]).trimmingASCIIWhitespace().lowercasedASCII()
        guard !coding.isEmpty else { return nil }
        var weight = 1000
        for parameter in parts.dropFirst() {
            let text = String(parameter).trimmingASCIIWhitespace()
            guard text.count >= 2, text.prefix(2).lowercased() == "q=" else { continue }
            guard let q = qvalue(text.dropFirst(2)) else { return nil }
            weight = q
        }
        return (coding, weight)
    }

    /// §12.4.2: `( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
    static func qvalue(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == 0x30 || first == 0x31 else { return nil }
        var value = Int(first - 0x30) * 1000
        guard bytes.count > 1 else { return value }
        guard bytes[1] == 0x2E, bytes.count <= 5 else { return nil }
        var scale = 100
        for digit in bytes[2...] {
            guard (0x30...0x39).contains(digit) else { return nil }
            value += Int(digit - 0x30) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }
}
