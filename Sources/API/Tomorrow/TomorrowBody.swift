import Foundation
import Fuel

/// The body of `GET /v1/tomorrow`, written once by hand: through `JSONEncoder` the 80-station WA page cost
/// 3.9 ms of CPU, 85 % of it in Foundation's string bridging (`PettyBench worst --only /v1/tomorrow`, 2026-12-02);
/// written here it is the cost of the board.
struct TomorrowBody {
    struct Row {
        var comparison: TomorrowComparison
        var entry: StationEntry
        var distanceKm: Double?
    }

    /// A state that publishes no next-day prices: `available` false and why.
    static func unavailable(state: AustralianState, fuel: FuelType?, reason: String, meta: DataMeta) -> [UInt8] {
        var json = JSONWriter(capacity: 512)
        json.raw("{\"data\":{\"state\":")
        json.string(state.rawValue)
        if let fuel {
            json.field("fuel", fuel.rawValue)
        }
        json.raw(",\"available\":false,\"reason\":")
        json.string(reason)
        json.raw(",\"stations\":[]},\"meta\":")
        meta.write(into: &json)
        json.raw("}")
        return json.bytes
    }

    static func write(
        state: AustralianState, fuel: FuelType?, board: TomorrowBoard, rows: [Row], page: ArraySlice<Row>,
        limit: Int, offset: Int, meta: DataMeta
    ) -> [UInt8] {
        var json = JSONWriter(capacity: 512 + page.count * 220)
        json.raw("{\"data\":{\"state\":")
        json.string(state.rawValue)
        if let fuel {
            json.field("fuel", fuel.rawValue)
        }
        json.field("available", board.isPublished)
        if !board.isPublished {
            json.field("reason", "Tomorrow's prices are published at 2:30 pm Perth time")
        }
        json.field("trading_day", board.tradingDay)
        if let publishedAt = board.publishedAt {
            json.field("published_at", ISOTimestamp.string(publishedAt))
        }
        json.field("expected_at", ISOTimestamp.string(board.expectedAt))
        if board.isPublished {
            json.raw(",\"summary\":{")
            writeCounts(of: rows.map(\.comparison.verdict), into: &json)
            json.raw("}")
        }
        json.raw(",\"stations\":[")
        if board.isPublished {
            for (index, row) in page.enumerated() {
                if index > 0 { json.raw(",") }
                write(row, into: &json)
            }
        }
        json.raw("]},\"meta\":{\"total\":")
        json.int(board.isPublished ? rows.count : 0)
        json.field("limit", limit)
        json.field("offset", offset)
        json.raw(",")
        json.raw(meta.fields)
        json.raw("}}")
        return json.bytes
    }

    /// `"today_cheaper":n,"tomorrow_cheaper":n,"same":n,"no_price_today":n`: every verdict counted, also by the summary.
    static func writeCounts(of verdicts: [TomorrowVerdict], into json: inout JSONWriter) {
        var counts: [TomorrowVerdict: Int] = [:]
        for verdict in verdicts { counts[verdict, default: 0] += 1 }
        json.raw("\"today_cheaper\":")
        json.int(counts[.todayCheaper] ?? 0)
        json.field("tomorrow_cheaper", counts[.tomorrowCheaper] ?? 0)
        json.field("same", counts[.same] ?? 0)
        json.field("no_price_today", counts[.noPriceToday] ?? 0)
    }

    private static func write(_ row: Row, into json: inout JSONWriter) {
        let comparison = row.comparison
        let station = row.entry.station
        json.raw("{\"station_id\":")
        json.int(row.entry.id.rawValue)
        json.field("name", station.name)
        json.field("brand", station.brand)
        json.field("suburb", station.suburb)
        json.field("fuel", comparison.fuel.rawValue)
        json.field("today", comparison.today)
        json.field("tomorrow", comparison.tomorrow)
        json.field("difference", comparison.today.map { PriceTenths(tenths: comparison.tomorrow.tenths - $0.tenths) })
        json.field("verdict", comparison.verdict.rawValue)
        if let distance = row.distanceKm {
            json.field("distance_km", distance, places: 2)
        }
        json.raw("}")
    }
}
