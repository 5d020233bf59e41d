import Foundation
import Fuel
import HTTP

/// `GET /internal/v1/dataset`: the leader's dataset for followers (`PETTY_FOLLOW_URL`), with a conditional GET
/// so an unchanged dataset costs one 304. Only clients in `PETTY_FOLLOWERS` (default loopback) may read it;
/// anyone else gets the same 404 as an unknown path. The client address is the one `TrustedProxyMiddleware`
/// settled on, so a request relayed by nginx is judged by its real origin.
struct ReplicationController: RouteCollection {
    let context: PettyContext
    let allowed: [IPAddressRange]

    func boot(routes: RoutesBuilder) throws {
        routes.get("internal", "v1", "dataset", use: dataset)
    }

    func dataset(_ request: Request) throws -> Response {
        guard let client = IPAddress(request.clientAddress), allowed.contains(where: { $0.contains(client) }) else {
            throw RouteNotFound()
        }
        let view = context.store.current
        let etag = ReplicationPayload.etag(view.snapshot)
        var headers: HTTPHeaders = [
            "Content-Type": ReplicationPayload.contentType,
            "ETag": etag,
            "Cache-Control": "no-cache",
            "Last-Modified": view.extra.lastModified,
        ]
        if let condition = request.headers.first(name: "If-None-Match"), condition == etag {
            headers.remove(name: "Content-Type")
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: try ReplicationPayload.encode(view.dataset))
    }
}
