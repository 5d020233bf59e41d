import HTTP

/// Who may read the internal endpoints (`/internal/v1/dataset`, `/metrics`): clients in `PETTY_FOLLOWERS`
/// (default loopback). Anyone else gets the same 404 as an unknown path. The client address is the one
/// `TrustedProxyMiddleware` settled on, so a request relayed by nginx is judged by its real origin.
package struct InternalAccess: Sendable {
    let allowed: [IPAddressRange]

    package init(allowed: [IPAddressRange]) { self.allowed = allowed }

    package func check(_ request: Request) throws {
        guard allows(request) else { throw RouteNotFound() }
    }

    package func allows(_ request: Request) -> Bool {
        guard let client = IPAddress(request.clientAddress) else { return false }
        return allowed.contains { $0.contains(client) }
    }
}
