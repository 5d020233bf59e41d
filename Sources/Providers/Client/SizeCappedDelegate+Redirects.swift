import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Redirects are followed only within the origin (scheme, host and port) the request was sent to.
///
/// URLSession copies every header onto the redirected request, so following a redirect to another origin would
/// hand that host our credentials (NSW Bearer, `apikey` and Basic key:secret, the Informed Sources subscriber
/// token, VIC's consumer id). Within the same origin nothing new learns them, and a provider moving a path on its
/// own host keeps working; an `https` to `http` hop is another origin, so credentials never drop to clear text.
extension SizeCappedDelegate {
    static let crossOriginRedirectReason = "redirect to another origin refused"

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        if let from = task.originalRequest?.url, let to = request.url, Origin(from) != nil, Origin(from) == Origin(to) {
            completionHandler(request)
            return
        }
        // Declining ends the task with the redirect response itself; completion reports this reason instead, so
        // neither that body nor anything from the other origin reaches the caller.
        _ = mark(task, reason: .httpStatus(response.statusCode, reason: Self.crossOriginRedirectReason))
        completionHandler(nil)
    }
}

/// RFC 6454 origin of an http(s) URL: lower-cased scheme and host, and the port with the scheme's default filled in.
struct Origin: Equatable {
    let scheme: String
    let host: String
    let port: Int

    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        let defaultPort: Int
        switch scheme {
        case "http": defaultPort = 80
        case "https": defaultPort = 443
        default: return nil
        }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? defaultPort
    }
}
