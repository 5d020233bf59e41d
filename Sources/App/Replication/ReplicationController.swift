import API
import Foundation
import Fuel
import HTTP

/// `GET /internal/v1/dataset`: the leader's dataset for followers (`PETTY_FOLLOW_URL`), with a conditional GET
/// so an unchanged dataset costs one 304. Only `InternalAccess` clients may read it.
struct ReplicationController: RouteCollection {
    let context: PettyContext
    let allowed: [IPAddressRange]

    func boot(routes: RoutesBuilder) throws {
        routes.get("internal", "v1", "dataset", use: dataset)
    }

    func dataset(_ request: Request) throws -> Response {
        try InternalAccess(allowed: allowed).check(request)
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
