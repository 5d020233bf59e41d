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
        let params = try QueryParameters(request, allowing: .advice)
        let fuel = try params.requiredFuel()
        let target = try Self.target(params)
        guard let city = target else {
            // Outside every metro area; in WA, published tomorrow prices nearby still answer (by WA's clock).
            let board = context.adviceBoard(view)
            guard let fragment = board.nearbyFragment(fuel: fuel, near: try params.coordinate(), snapshot: view.snapshot) else {
                return board.outside[fuel]!
            }
            return AdviceBoard.response(fragment: fragment, meta: view.rendered.meta(for: .WA), lastModified: view.rendered.lastModified)
        }
        return context.adviceBoard(view).responses[MetroFuel(city, fuel)]!
    }

    /// The city asked for: `city` when given (it wins over `near`), else the metro area containing `near`
    /// (nil outside all of them). Neither is a 400, and so is a malformed `near` even beside a `city`.
    static func target(_ params: QueryParameters) throws -> MetroArea? {
        let near = try params.coordinate()
        if let city = try params.choice("city", as: MetroArea.self) { return city }
        guard let near else {
            throw params.bad("advice needs near=lat,lng or city (one of \(MetroArea.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        return MetroArea.containing(near)
    }
}
