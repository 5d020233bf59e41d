import Foundation
import Fuel
import HTTP

/// `GET /v1/advice?fuel=U91&near=lat,lng` (or `&city=sydney`): fill up now or wait, from the city's price cycle.
struct AdviceController: RouteCollection {
    let context: PettyContext

    func boot(routes: RoutesBuilder) throws {
        // A point is per client: answered from the board each time. A city's answer is judged by its clock (the
        // board's boundaries are whole seconds), so it is kept for the second.
        routes.get("v1", "advice", use: context.memoizing(.second, perClient: .near, render: render))
    }

    private func render(_ request: Request, view: PettyView) throws -> Response {
        let params = try AdviceParameters(request)
        let fuel = params.fuel
        guard let city = params.city else {
            // Outside every metro area; in WA, published tomorrow prices nearby still answer (by WA's clock).
            let board = context.adviceBoard(view)
            guard let fragment = board.nearbyFragment(fuel: fuel, near: params.near, snapshot: view.snapshot) else {
                return board.outside[fuel]!
            }
            return AdviceBoard.response(fragment: fragment, meta: view.rendered.meta(for: .WA), lastModified: view.rendered.lastModified)
        }
        return context.adviceBoard(view).responses[MetroFuel(city, fuel)]!
    }
}
