import Foundation
import HTTP

/// `scheme://host` of the request as the client addressed it, for the absolute URLs link previews need
/// (`og:url`, `og:image`, the app banner's `app-argument`).
///
/// The host comes from `Host` and is used only when every byte is in `[A-Za-z0-9.:-]` (plus `[` `]` around
/// an IPv6 literal); anything else means no absolute URLs at all rather than a guessed one. The scheme comes
/// from `X-Forwarded-Proto` (nginx sets it) and is `https` or `http`, nothing else.
struct RequestOrigin: Equatable {
    /// `https://example.com:8443`, safe to write into HTML unescaped.
    let bytes: [UInt8]

    static let maxHostLength = 255

    init?(host: String?, forwardedProto: String?) {
        guard let host, Self.isValidHost(host) else { return nil }
        let https = forwardedProto.map(Self.isHTTPS) ?? false
        var bytes = Array((https ? "https://" : "http://").utf8)
        bytes.append(contentsOf: host.utf8)
        self.bytes = bytes
    }

    init?(_ request: Request) {
        self.init(host: request.headers.first(name: "Host"), forwardedProto: request.headers.first(name: "X-Forwarded-Proto"))
    }

    var string: String { String(decoding: bytes, as: UTF8.self) }

    static func isValidHost(_ host: String) -> Bool {
        let utf8 = host.utf8
        guard !utf8.isEmpty, utf8.count <= maxHostLength else { return false }
        var brackets = 0
        for byte in utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "."), UInt8(ascii: ":"), UInt8(ascii: "-"):
                continue
            case UInt8(ascii: "["), UInt8(ascii: "]"):
                brackets += 1
            default:
                return false
            }
        }
        // Brackets only as one IPv6 literal at the start: `[::1]` or `[::1]:8080`.
        guard brackets > 0 else { return utf8.first != UInt8(ascii: ":") }
        guard brackets == 2, utf8.first == UInt8(ascii: "["), let close = utf8.firstIndex(of: UInt8(ascii: "]")) else { return false }
        let rest = utf8[utf8.index(after: close)...]
        return rest.isEmpty || rest.first == UInt8(ascii: ":")
    }

    /// The first hop's value (`https, http` from chained proxies), case-insensitive.
    static func isHTTPS(_ value: String) -> Bool {
        let first = value.split(separator: ",", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        return first.lowercased() == "https"
    }
}
