import Fuel
import HTTP

/// `GET /v1/fuels` and `GET /v1/brands`: the lists filter screens offer, rendered once per snapshot.
struct ReferenceController: RouteCollection {
    let context: PettyContext

    func boot(routes: RoutesBuilder) throws {
        routes.get("v1", "fuels", use: fuels)
        routes.get("v1", "brands", use: brands)
    }

    func fuels(_ request: Request) throws -> Response {
        _ = try FuelsParameters(request)
        let view = context.store.current
        return view.rendered.reference(of: view.snapshot).fuels
    }

    func brands(_ request: Request) throws -> Response {
        let state = try BrandsParameters(request).state
        let view = context.store.current
        return view.rendered.reference(of: view.snapshot).brands(in: state)
    }
}
