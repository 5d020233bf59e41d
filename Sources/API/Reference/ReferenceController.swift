import Fuel
import HTTP

/// `GET /v1/fuels` and `GET /v1/brands`: the lists filter screens offer, pre-rendered per snapshot.
struct ReferenceController: RouteCollection {
    let context: PettyContext

    func boot(routes: RoutesBuilder) throws {
        routes.get("v1", "fuels", use: fuels)
        routes.get("v1", "brands", use: brands)
    }

    func fuels(_ request: Request) throws -> Response {
        _ = try QueryParameters(request, allowing: .fuels)
        return context.store.current.rendered.reference.fuels
    }

    func brands(_ request: Request) throws -> Response {
        let state = try QueryParameters(request, allowing: .brands).state()
        return context.store.current.rendered.reference.brands(in: state)
    }
}
