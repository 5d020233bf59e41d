import Fuel
import HTTP

/// `compact=true`: map pins. Each is the snapshot's ready `CompactStationEncoding.head` plus the asked fuel's
/// `price` (and `tomorrow`, where published); with several fuels (`fuel=U91,E10`), the lowest of them and a
/// `fuel` naming it. A price that does not count (stale, implausible) is left out rather than pinned on a map.
/// `meta.sampled` says whether the pins are an even spread (`FuelIndex.mapPins`) rather than a page; a page in id
/// order has `meta.next_after`, and favourites (`ids=`) `meta.missing`, as the full list has.
enum CompactStationListBody {
    static func response(
        pins: MapPinPage, fuels: [FuelType], view: PettyView, state: AustralianState?, rawQuery: String?, missing: [StationID]? = nil,
        keyset: Bool = false
    ) -> Response {
        let page = pins.page
        let rendered = view.rendered
        let meta = rendered.meta(for: state)
        let entries = view.snapshot.entries
        var json = JSONWriter(capacity: 160 + page.hits.count * 80)
        var hash = FNV1a()
        hash.combine(rawQuery ?? "")
        hash.combine(UInt64(page.total))
        json.raw("{\"data\":[")
        for (index, hit) in page.hits.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw(rendered.compactHeads[hit.slot])
            if let price = pinPrice(entries[hit.slot], slot: hit.slot, fuels: fuels, index: view.index) {
                if fuels.count > 1 {
                    json.field("fuel", price.fuel.rawValue)
                }
                json.field("price", price.price)
                if let tomorrow = price.tomorrow {
                    json.field("tomorrow", tomorrow.price)
                }
            }
            if let distance = hit.distanceKm, distance.isFinite {
                json.field("distance_km", distance, places: 2)
            }
            json.raw("}")
            hash.combine(rendered.hashes[hit.slot])
        }
        meta.writeListEnd(total: page.total, limit: page.limit, offset: page.offset, into: &json) { json in
            if keyset { KeysetPaging.writeNextAfter(page, entries: entries, into: &json) }
            if let missing {
                MissingIDs.write(missing, into: &json)
                for id in missing { hash.combine(UInt64(id.rawValue)) }
            }
            json.field("sampled", pins.isSampled)
            if let cell = pins.cellDegrees {
                json.raw(",\"sampling\":\"cheapest_per_cell\",\"cell_degrees\":")
                json.decimal(cell, places: 6)
            }
        }
        hash.combine(pins.isSampled ? 1 as UInt8 : 0)
        hash.combine(meta.hash)
        return JSONResponse.make(body: json.bytes, etag: hash.weakETag, lastModified: rendered.lastModified)
    }

    /// The lowest counting price among `fuels` (first asked on a tie).
    static func pinPrice(_ entry: StationEntry, slot: Int, fuels: [FuelType], index: FuelIndex) -> StationPrice? {
        var best: StationPrice?
        for fuel in fuels where index.standing(fuel, slot: slot).isEmpty {
            guard let price = entry.price(of: fuel) else { continue }
            if best.map({ price.price < $0.price }) ?? true { best = price }
        }
        return best
    }
}

/// `cluster=true`: grid cells (`FuelIndex.clusters`) instead of stations, for zoomed-out maps.
/// `{"data": [{"count", "centroid": {latitude, longitude}, "min_price", "min_price_station_id"}],
///   "meta": {"total" (cells), "stations", "cell_degrees", as_of, source, states}}`
enum StationClusterBody {
    static func response(_ clusters: [StationCluster], cellDegrees: Double, view: PettyView, state: AustralianState?) -> Response {
        let rendered = view.rendered
        let meta = rendered.meta(for: state)
        var json = JSONWriter(capacity: 160 + clusters.count * 120)
        json.raw("{\"data\":[")
        for (index, cluster) in clusters.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{\"count\":")
            json.int(cluster.count)
            json.raw(",\"centroid\":{\"latitude\":")
            json.decimal(cluster.centroid.latitude, places: 5)
            json.field("longitude", cluster.centroid.longitude, places: 5)
            json.raw("},\"min_price\":")
            if let price = cluster.minPrice { json.price(price) } else { json.null() }
            json.field("min_price_station_id", cluster.minPriceStation?.rawValue)
            json.raw("}")
        }
        json.raw("],\"meta\":{\"total\":")
        json.int(clusters.count)
        json.field("stations", clusters.reduce(0) { $0 + $1.count })
        json.field("cell_degrees", cellDegrees, places: 6)
        json.raw(",")
        json.raw(meta.fields)
        json.raw("}}")
        // Small bodies: the ETag hashes the bytes themselves.
        var hash = FNV1a()
        hash.combine(json.bytes)
        return JSONResponse.make(body: json.bytes, etag: hash.weakETag, lastModified: rendered.lastModified)
    }
}
