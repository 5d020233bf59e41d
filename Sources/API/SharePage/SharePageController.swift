import Foundation
import Fuel
import HTTP

/// `GET /stations/:id`: the share link. Browsers get a server-rendered HTML page; clients that prefer
/// `application/json` get exactly the `GET /v1/stations/:id` body and ETag. Both say `Vary: Accept`.
struct SharePageController: RouteCollection {
    let context: PettyContext
    /// Whether an app is configured (App Store id or Android package): the page then links "Open in Petty".
    let hasApp: Bool

    init(context: PettyContext) {
        self.context = context
        hasApp = !(context.appStoreID ?? "").isEmpty || context.android != nil || context.apple != nil
    }

    func boot(routes: RoutesBuilder) throws {
        routes.get("stations", ":id", use: show)
    }

    func show(_ request: Request) throws -> Response {
        let preference = MediaPreference(request)
        let raw = request.parameters.get("id") ?? ""
        let view = context.store.current
        guard let id = StationID(raw[...]), let slot = view.snapshot.slot(of: id) else {
            if let id = StationID(raw[...]), let removed = view.dataset.removedStation(id) {
                var response = preference == .html ? RemovedStationResponse.html() : RemovedStationResponse.json(removed)
                response.headers.replaceOrAdd(name: "Vary", value: "Accept, Accept-Encoding")
                return response
            }
            guard preference == .html else {
                throw Abort(.notFound, reason: "No station with id '\(raw)'", headers: ["Vary": "Accept, Accept-Encoding"])
            }
            return NotFoundPage.response()
        }
        let rendered = view.rendered
        if preference == .json {
            var response = rendered.detailResponse(slot: slot, in: view, wall: context.clock())
            response.headers.replaceOrAdd(name: "Vary", value: "Accept, Accept-Encoding")
            return response
        }
        // Judged by the clock: tomorrow's WA prices show from their publication to the end of their day.
        return context.memoized(request, variant: "html", in: view, freshness: .second) {
            let entry = view.snapshot.entries[slot]
            let page = StationSharePage.build(
                entry: entry, status: view.snapshot.status(of: entry.station.provider), appStoreID: context.appStoreID,
                openInApp: hasApp ? context.publicURL : nil, standing: { view.index.judge.standing(of: $0, at: entry.station) },
                versus: { view.index.versusAverageComparison($0, slot: slot) }
            ).render(now: context.now(for: entry.station.provider, in: view), origin: context.publicURL)
            var headers = PageChrome.headers(status: .ok)
            headers.add(name: "ETag", value: page.etag)
            headers.add(name: "Last-Modified", value: rendered.lastModified)
            return Response(status: .ok, headers: headers, body: page.body)
        }
    }
}
