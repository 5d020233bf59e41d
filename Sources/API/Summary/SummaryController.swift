import Foundation
import Fuel
import HTTP

/// `GET /v1/summary?state=XX&fuel=U91[&near=lat,lng]`: one widget's worth in one call, at most 2,500 bytes (`maxBytes`).
/// Everything but the three cheapest stations is rendered once per snapshot (and advice boundary); those are found
/// per request, since whether a station is open changes with the minute.
struct SummaryController: RouteCollection {
    let context: PettyContext

    /// Stations within this distance of `near` are "near": a short drive to save a few cents.
    static let nearRadiusKm = 10.0
    static let cheapestCount = 3
    /// Station names are shortened to this many characters, so three of them fit the byte budget.
    static let maxNameCharacters = 40
    static let maxBytes = 2_500
    /// And to this many UTF-8 bytes (the ellipsis included): three names of 40 three-byte characters would not fit
    /// beside each station's access facts.
    static let maxNameBytes = 76

    static func shortened(_ name: String) -> String {
        // No more bytes than the character limit means no more characters either: the usual name is not counted.
        let length = name.utf8.count
        guard length > maxNameCharacters else { return name }
        guard name.count > maxNameCharacters || length > maxNameBytes else { return name }
        var kept = ""
        var count = 0
        var bytes = "…".utf8.count
        for character in name {
            let size = character.utf8.count
            if count + 1 >= maxNameCharacters || bytes + size > maxNameBytes { break }
            kept.append(character)
            count += 1
            bytes += size
        }
        return kept + "…"
    }

    func boot(routes: RoutesBuilder) throws {
        // The cheapest three follow `/v1/prices/cheapest`'s access rule (no station known to be closed now, no
        // members-only one), judged by the clock like `open_now` itself: without `near` the whole answer is kept
        // in the memo while that judgement holds; with `near` (a point per request) it is built each time.
        routes.get("v1", "summary", use: context.memoizing(.second, perClient: .near, render: render))
    }

    private func render(_ request: Request, view: PettyView) throws -> Response {
        let params = try SummaryParameters(request)
        let (state, fuel, near) = (params.state, params.fuel, params.near)
        // With `near`, the advice `/v1/advice` gives for that point (none of a city's outside every metro area).
        let city = near.flatMap(MetroArea.containing)
        let board = context.adviceBoard(view)
        let parts = context.summaryParts(StateFuel(state, fuel), board: board, view: view)
        let wall = context.clock()
        return try Self.body(view: view, board: board, parts: parts, state: state, fuel: fuel, near: near, city: city, wall: wall)
    }

    static func body(
        view: PettyView, board: AdviceBoard, parts: SummaryParts, state: AustralianState, fuel: FuelType, near: Coordinate?,
        city: MetroArea?, wall: Date
    ) throws -> Response {
        let openNow = OpenNowJudge(clocks: view.clocks, wall: wall)
        let access = AccessFilter(opening: .notClosed, excludesMembersOnly: true, clocks: openNow.clocks, wall: openNow.wall)
        var json = JSONWriter(capacity: Self.maxBytes)
        json.raw(parts.head)
        json.raw(",\"advice\":")
        // The ETag hashes the body; what comes from the board and the parts was hashed once with them.
        var hashed = (hash: parts.hashThroughAdviceKey, count: json.bytes.count)
        let adviceCity = near == nil ? MetroArea.capital(of: state) : city
        if let adviceCity {
            json.raw(board.fragments[MetroFuel(adviceCity, fuel)]!)
            if let known = parts.hashThroughAdvice[adviceCity] { hashed = (known, json.bytes.count) }
        } else if let near {
            json.raw(board.nearbyFragment(fuel: fuel, near: near, snapshot: view.snapshot) ?? board.outsideFragments[fuel]!)
        } else {
            // A state without a cycling capital (ACT, TAS, NT): the object of anywhere outside a metro area
            // (`no_cycle`), never null, so the widget reads one shape; its reason names the state, not a point.
            json.raw(board.noCycleStateFragments[fuel]!)
        }
        json.raw(",\"cheapest\":[")
        let fragments = view.rendered.fragments
        if let near {
            // Only the three cheapest are looked for; the rest of the circle is never ranked (a point per request).
            let hits = view.index.cheapestNearHits(fuel: fuel, point: near, radiusKm: Self.nearRadiusKm, limit: Self.cheapestCount, access: access)
            // Through a buffer, so no station record is copied (retaining its strings) to be written.
            view.snapshot.entries.withUnsafeBufferPointer { entries in
                for (position, hit) in hits.enumerated() {
                    if position > 0 { json.raw(",") }
                    let entry = entries.baseAddress! + hit.slot
                    Self.write(
                        entry, fragment: fragments[hit.slot], distanceKm: hit.distanceKm, fuel: fuel, openNow: openNow(entry),
                        into: &json)
                }
            }
        } else {
            let matches = (try? view.index.cheapest(fuel: fuel, state: state, limit: Self.cheapestCount, access: access))?.matches ?? []
            for (position, match) in matches.enumerated() {
                if position > 0 { json.raw(",") }
                withUnsafePointer(to: match.entry) { entry in
                    Self.write(entry, fragment: nil, distanceKm: nil, fuel: fuel, openNow: openNow(entry), into: &json)
                }
            }
        }
        guard let near else {
            json.raw("],\"near\":null")
            json.raw(parts.tail)
            return Self.response(json, hashed: hashed, lastModified: view.rendered.lastModified)
        }
        json.raw("],\"near\":{\"lat\":")
        json.decimal(near.latitude, places: 5)
        json.field("lng", near.longitude, places: 5)
        json.field("radius_km", Self.nearRadiusKm, places: 1)
        json.raw("}")
        json.raw(parts.tail)
        return Self.response(json, hashed: hashed, lastModified: view.rendered.lastModified)
    }

    /// The ETag is FNV-1a over the whole body; `hashed` is that hash over its first `count` bytes already.
    static func response(_ json: JSONWriter, hashed: (hash: FNV1a, count: Int), lastModified: String) -> Response {
        var hash = hashed.hash
        json.bytes.withUnsafeBufferPointer { bytes in
            for byte in bytes[hashed.count...] { hash.combine(byte) }
        }
        return JSONResponse.make(body: json.bytes, etag: hash.weakETag, lastModified: lastModified)
    }

    /// `{"id":1,"name":"...","brand":"Shell","brand_key":"shell","price":189.9,"updated_at":"...","location":{...},
    /// "distance_km":1.23,"open_now":true,"membership_required":false}`
    /// (`null` distance without `near`; `null` access facts where the provider says nothing). `fragment` is the
    /// station's list JSON (`StationEncoding.fragment`), whose id and name are these unless the name is shortened
    /// (nil: written from `entry`).
    /// Read through a pointer: a record passed by value is copied whole (each of its strings retained) per station.
    static func write(
        _ entry: UnsafePointer<StationEntry>, fragment: ArraySlice<UInt8>?, distanceKm: Double?, fuel: FuelType, openNow: Bool?,
        into json: inout JSONWriter
    ) {
        writeIDAndName(entry, fragment: fragment, into: &json)
        json.field("brand", shortened(entry.pointee.station.brand))
        json.field("brand_key", BrandFamily.key(of: entry.pointee.station.brand))
        // Not `price(of:)`: a method called on `pointee` copied the record.
        let price = entry.pointee.prices.first(where: { $0.fuel == fuel })
        json.field("price", price?.price)
        json.field("updated_at", price.map { ISOTimestamp.string($0.updatedAt) })
        json.raw(",\"location\":{\"latitude\":")
        json.decimal(entry.pointee.station.location.latitude, places: 6)
        json.field("longitude", entry.pointee.station.location.longitude, places: 6)
        json.raw("}")
        json.field("distance_km", distanceKm, places: 2)
        StationEncoding.writeOpenNow(openNow, into: &json)
        json.field("membership_required", MembersOnly.required(entry.pointee.station.record))
        json.raw("}")
    }

    /// `{"id":1,"name":"..."`: copied from the station's fragment, already escaped, when the name is written whole;
    /// escaped here when it is shortened.
    static func writeIDAndName(_ entry: UnsafePointer<StationEntry>, fragment: ArraySlice<UInt8>?, into json: inout JSONWriter) {
        if entry.pointee.station.name.utf8.count <= maxNameCharacters, let fragment, let end = StationEncoding.nameEnd(in: fragment) {
            json.bytes.append(contentsOf: fragment[..<end])
            return
        }
        json.raw("{\"id\":")
        json.int(Int(entry.pointee.id.rawValue))
        json.field("name", shortened(entry.pointee.station.name))
    }
}

/// The parts of a summary that depend on neither `near` nor the instant (the cheapest stations' `open_now`), for one
/// state and fuel.
struct SummaryParts: Sendable {
    /// `{"data":{` up to the tomorrow counts (no trailing comma).
    let head: [UInt8]
    /// `},"meta":{...}}`
    let tail: [UInt8]
    /// FNV-1a over `head` and `,"advice":`: where the ETag's hash starts.
    let hashThroughAdviceKey: FNV1a
    /// And on through each city's advice for this fuel (the board's fragment), for a summary showing it.
    let hashThroughAdvice: [MetroArea: FNV1a]

    init(view: PettyView, board: AdviceBoard, state: AustralianState, fuel: FuelType) {
        var json = JSONWriter(capacity: 512)
        json.raw("{\"data\":{\"state\":")
        json.string(state.rawValue)
        json.field("fuel", fuel.rawValue)
        let average = view.averages[state, fuel]
        json.field("average", average?.average, places: 1)
        json.field("min", average?.min)
        json.field("station_count", average?.stationCount ?? 0)
        // The instant the state's provider went quiet for longer than its limit (`QuietProviders`): its prices stopped
        // counting then, so the average and cheapest leave them out.
        let quiet = view.clocks.provider(of: state).flatMap { view.snapshot.status(of: $0)?.staleSince }
        json.field("stale_since", quiet.map(ISOTimestamp.string))
        // Only for the day the average describes: never a change that ends on another day. (Naming that day here, or
        // why the change is missing, would not fit the byte budget: `/v1/averages` and `/v1/trends` name it.)
        // A panel's series is another population than `average`: no change is set beside it (`SeriesBasis`).
        let points = view.history.points(state: state, fuel: fuel)
        let day = view.index.dataDays[state]
        let basis = SeriesBasis.of(points, day: day, stations: average?.stationCount)
        let change = basis == .state ? WeekChange(points: points, day: day) : nil
        json.field("change_7d", change?.value, places: 1)
        json.raw(",\"tomorrow\":")
        if TomorrowController.publishingStates.contains(state) {
            let now = view.clocks.now(for: state, wall: board.builtAt)
            let tomorrow = view.index.tomorrowBoard(fuel: fuel, now: now)
            if tomorrow.isPublished {
                json.raw("{\"trading_day\":")
                json.string(tomorrow.tradingDay)
                json.raw(",")
                TomorrowBody.writeCounts(of: tomorrow.comparisons.map(\.verdict), into: &json)
                json.raw("}")
            } else {
                json.null()
            }
        } else {
            json.null()
        }
        head = json.bytes

        var end = JSONWriter(capacity: 256)
        end.raw("},\"meta\":")
        view.rendered.meta(for: state).write(into: &end)
        end.raw("}")
        tail = end.bytes

        var hash = FNV1a()
        hash.combine(head)
        hash.combine(Array(",\"advice\":".utf8))
        hashThroughAdviceKey = hash
        var cities: [MetroArea: FNV1a] = [:]
        for city in MetroArea.allCases {
            guard let fragment = board.fragments[MetroFuel(city, fuel)] else { continue }
            var through = hash
            through.combine(fragment)
            cities[city] = through
        }
        hashThroughAdvice = cities
    }
}
