import Fuel
import HTTP

/// `GET /internal/v1/dataset`: the leader's dataset for followers (`PETTY_FOLLOW_URL`), with a conditional GET
/// so an unchanged dataset costs one 304, sealed with a checksum when the follower asks for it (`Accept`).
/// `GET /internal/v1/providers`: how the leader's polls go (`LeaderProvidersBody`). Only `InternalAccess` clients
/// may read them.
package struct ReplicationController<Payload: DatasetPayload>: RouteCollection {
    let context: PettyContext
    let access: InternalAccess

    package init(context: PettyContext, access: InternalAccess, payload: Payload.Type) {
        self.context = context
        self.access = access
    }

    package func boot(routes: RoutesBuilder) throws {
        routes.get("internal", "v1", "dataset", use: dataset)
        routes.get("internal", "v1", "providers", use: providers)
    }

    func dataset(_ request: Request) throws -> Response {
        try access.check(request)
        let view = context.store.current
        let etag = DatasetWire.etag(view.snapshot)
        let sealed = request.headers.first(name: "Accept")?.contains(DatasetWire.sealedContentType) == true
        var headers: HTTPHeaders = [
            "Content-Type": sealed ? DatasetWire.sealedContentType : DatasetWire.contentType,
            "ETag": etag,
            "Cache-Control": "no-cache",
            "Last-Modified": view.rendered.lastModified,
            "Vary": "Accept",
        ]
        if let condition = request.headers.first(name: "If-None-Match"), condition == etag {
            headers.remove(name: "Content-Type")
            return Response(status: .notModified, headers: headers)
        }
        let body = sealed ? try Payload.encodeSealed(view.dataset) : try Payload.encode(view.dataset)
        return Response(status: .ok, headers: headers, body: body)
    }

    /// The pollers' health, or in a follower the leader's it holds (so a chain of followers passes it on).
    func providers(_ request: Request) throws -> Response {
        try access.check(request)
        let health = context.providers?.all ?? context.follower?().state.leaderProviders ?? [:]
        return Response(
            status: .ok, headers: ["Content-Type": "application/json", "Cache-Control": "no-store"],
            body: try LeaderProvidersBody.encode(health))
    }
}
