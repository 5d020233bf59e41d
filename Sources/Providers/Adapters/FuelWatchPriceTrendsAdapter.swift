import Foundation
import Fuel

/// FuelWatch's `GET /api/report/price-trends?region=Metro&fuelType=ULP`: its own daily average per trading day,
/// newest first: `[{"publishDate":"2026-04-22T00:00:00+08:00","averagePrice":193.9}, ...]`. The date part of
/// `publishDate` (local) is the trading day. Min, max and station count are not published, so each point carries
/// the average as its min and max and a station count of 0.
public enum FuelWatchPriceTrendsAdapter {
    private struct Row: Decodable {
        var publishDate: String
        var averagePrice: Double
    }

    /// The report's points, oldest first; rows with an unreadable day or an implausible average are skipped.
    public static func adapt(_ data: Data) throws(AdapterError) -> [DailyPoint] {
        let source = "FuelWatch price-trends"
        let rows: [Row]
        do { rows = try JSONDecoder().decode([Row].self, from: data) } catch {
            throw .decodingFailed(source: source, context: String(describing: error).prefix(200).description)
        }
        guard !rows.isEmpty else { throw .emptyPayload(source: source) }
        return rows.compactMap { row -> DailyPoint? in
            guard let day = CalendarDay(row.publishDate.prefix(10)), (50...500).contains(row.averagePrice) else { return nil }
            let tenths = PriceTenths(cents: row.averagePrice)
            return DailyPoint(day: day.description, average: row.averagePrice, min: tenths, max: tenths, stationCount: 0)
        }.sorted { $0.day < $1.day }
    }
}
