import Foundation
import Fuel

/// The query of `GET /v1/prices/changes`: incremental sync from a `sync_token`, `cursor` or `since`.
struct ChangesParameters: EndpointParameters {
    static let operation = "/v1/prices/changes"
    static let defaultLimit = 1_000
    static let maxLimit = 5_000
    /// The most items one page holds: a larger `limit` is accepted and served as this (`meta.limit` says so; the
    /// client follows `next_cursor` as for any page). A 5,000-item page cost 4.3 ms of CPU and 1.2 MB
    /// (`PettyBench worst`), against 0.2 ms for a plain one.
    static let servedLimit = 2_000

    enum Name: String, ParameterName {
        /// An instant (ISO 8601): changes after it. Ignored beside a `cursor`.
        case since
        /// Where the previous page ended (`meta.next_cursor`) or a list's `meta.sync_token`.
        case cursor
        /// Only this state's changes.
        case state
        /// Only this fuel's price changes (station items still come).
        case fuel
        /// Only these stations' changes (favourites), up to 100 ids: a cheap "did my favourites change".
        case ids
        /// Items per page, 1 to 5,000 (default 1,000); more than 2,000 is served as 2,000.
        case limit
    }

    let state: AustralianState?
    let fuel: FuelType?
    let ids: [StationID]?
    let limit: Int
    /// A cursor carries its own position: given one, `since` is ignored (clients may keep it in their URL).
    let cursor: ChangeCursor?
    let since: Date?

    init(_ params: QueryReader<Name>) throws {
        state = try params.state(.state)
        fuel = try params.fuel(.fuel)
        ids = try params.ids(.ids)
        limit = min(try params.int(.limit, in: 1...Self.maxLimit, default: Self.defaultLimit), Self.servedLimit)
        cursor = try params.string(.cursor).map { token in
            guard let cursor = ChangeCursor(token: token) else {
                throw params.bad("cursor= is not one this server issued; send the cursor= a page's meta gave back unchanged, or drop it and start again from since= or a full /v1/stations sync")
            }
            return cursor
        }
        // Neither: from the beginning (a first sync pages through every current station and price).
        let asked = try params.date(.since)
        since = cursor == nil ? asked : nil
    }
}
