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
            json.raw(",\"fuel\":")
            json.string(fuel.rawValue)
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
            json.raw(",\"fuel\":")
            json.string(fuel.rawValue)
        }
        json.raw(",\"available\":")
        json.bool(board.isPublished)
        if !board.isPublished {
            json.raw(",\"reason\":")
            json.string("Tomorrow's prices are published at 2:30 pm Perth time")
        }
        json.raw(",\"trading_day\":")
        json.string(board.tradingDay)
        if let publishedAt = board.publishedAt {
            json.raw(",\"published_at\":")
            json.string(ISOTimestamp.string(publishedAt))
        }
        json.raw(",\"expected_at\":")
        json.string(ISOTimestamp.string(board.expectedAt))
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
        json.raw(",\"limit\":")
        json.int(limit)
        json.raw(",\"offset\":")
        json.int(offset)
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
        json.raw(",\"tomorrow_cheaper\":")
        json.int(counts[.tomorrowCheaper] ?? 0)
        json.raw(",\"same\":")
        json.int(counts[.same] ?? 0)
        json.raw(",\"no_price_today\":")
        json.int(counts[.noPriceToday] ?? 0)
    }

    private static func write(_ row: Row, into json: inout JSONWriter) {
        let comparison = row.comparison
        let station = row.entry.station
        json.raw("{\"station_id\":")
        json.int(row.entry.id.rawValue)
        json.raw(",\"name\":")
        json.string(station.name)
        json.raw(",\"brand\":")
        json.string(station.brand)
        json.raw(",\"suburb\":")
        json.string(station.suburb)
        json.raw(",\"fuel\":")
        json.string(comparison.fuel.rawValue)
        json.raw(",\"today\":")
        if let today = comparison.today { json.price(today) } else { json.null() }
        json.raw(",\"tomorrow\":")
        json.price(comparison.tomorrow)
        json.raw(",\"difference\":")
        if let today = comparison.today {
            json.price(PriceTenths(tenths: comparison.tomorrow.tenths - today.tenths))
        } else {
            json.null()
        }
        json.raw(",\"verdict\":")
        json.string(comparison.verdict.rawValue)
        if let distance = row.distanceKm {
            json.raw(",\"distance_km\":")
            json.decimal(distance, places: 2)
        }
        json.raw("}")
    }
}
