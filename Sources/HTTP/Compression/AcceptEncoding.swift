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
            var value = value
            value.withUTF8 { bytes in
                // Read in place, element by element: this runs on every request that asks for gzip.
                var start = 0
                while start <= bytes.count {
                    var end = start
                    while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
                    if let (coding, weight) = Self.element(UnsafeBufferPointer(rebasing: bytes[start..<end])) {
                        switch coding {
                        // §8.4.1.3: x-gzip is gzip.
                        case .gzip: explicitGzip = max(explicitGzip ?? 0, weight)
                        case .identity: explicitIdentity = weight
                        case .any: any = weight
                        case .other: break
                        }
                    }
                    start = end + 1
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

    /// The codings this server tells apart.
    enum Coding: Equatable {
        case gzip, identity, any, other
    }

    /// `coding [ OWS ";" OWS "q=" qvalue ]`; nil for an empty or malformed element.
    static func element(_ raw: UnsafeBufferPointer<UInt8>) -> (Coding, Int)? {
        var parts = raw.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false).makeIterator()
        guard let first = parts.next() else { return nil }
        let name = trimmed(first)
        guard !name.isEmpty else { return nil }
        let coding: Coding
        if equalsLowercase(name, "gzip") || equalsLowercase(name, "x-gzip") {
            coding = .gzip
        } else if equalsLowercase(name, "identity") {
            coding = .identity
        } else {
            coding = name.count == 1 && name.first == UInt8(ascii: "*") ? .any : .other
        }
        var weight = 1000
        while let parameter = parts.next() {
            let text = trimmed(parameter)
            guard text.count >= 2, text[text.startIndex] | 0x20 == UInt8(ascii: "q"),
                  text[text.startIndex + 1] == UInt8(ascii: "=") else { continue }
            guard let q = qvalue(text.dropFirst(2)) else { return nil }
            weight = q
        }
        return (coding, weight)
    }

    /// Without the surrounding spaces and tabs (OWS).
    static func trimmed(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> Slice<UnsafeBufferPointer<UInt8>> {
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        return bytes[start..<end]
    }

    /// Whether `bytes`, ASCII letters lowercased, spell `lowercase`.
    static func equalsLowercase(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        var i = 0
        for byte in bytes {
            let folded = (byte >= 65 && byte <= 90) ? byte | 0x20 : byte
            if folded != lowercase.utf8Start[i] { return false }
            i += 1
        }
        return true
    }

    /// §12.4.2: `( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
    static func qvalue<Bytes: Collection<UInt8>>(_ text: Bytes) -> Int? {
        var bytes = text.makeIterator()
        guard let first = bytes.next(), first == 0x30 || first == 0x31 else { return nil }
        var value = Int(first - 0x30) * 1000
        guard let point = bytes.next() else { return value }
        guard point == 0x2E, text.count <= 5 else { return nil }
        var scale = 100
        while let digit = bytes.next() {
            guard (0x30...0x39).contains(digit) else { return nil }
            value += Int(digit - 0x30) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }
}
