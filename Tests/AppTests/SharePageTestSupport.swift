import Foundation
import Fuel
import HTTP
@testable import API
@testable import App

/// Builders for share page tests: a browser's `Accept`, instants, and small live datasets.
enum SharePageFixtures {
    static let browserAccept: HTTPHeaders = ["Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"]
    static let jsonAccept: HTTPHeaders = ["Accept": "application/json"]

    /// `2026-01-14T03:35:00Z`: 2:35 pm AEDT on Wed 14 Jan 2026.
    static func instant(_ iso: String) -> Date { ISOTimestamp.parse(iso)! }

    static func record(
        _ provider: ProviderID, _ sourceID: String, name: String, brand: String = "Brand", address: String = "1 Main St",
        suburb: String = "Town", state: AustralianState, location: Coordinate = Coordinate(latitude: -33.8688, longitude: 151.2093)
    ) -> StationRecord {
        StationRecord(
            key: StationKey(provider: provider, sourceID: sourceID), name: name, brand: brand, address: address,
            suburb: suburb, state: state, postcode: "2000", location: location)
    }

    /// One live provider update merged into an empty dataset at `asOf`.
    static func dataset(
        _ provider: ProviderID, stations: [StationRecord], prices: [(String, FuelType, Int, Date)],
        tomorrow: [(String, FuelType, Int, String)] = [], asOf: Date
    ) -> Dataset {
        let update = ProviderUpdate(
            provider: provider, stations: stations,
            prices: prices.map { PriceRecord(station: StationKey(provider: provider, sourceID: $0.0), fuel: $0.1, price: PriceTenths(tenths: $0.2), updatedAt: $0.3) },
            tomorrow: tomorrow.map { TomorrowPriceRecord(station: StationKey(provider: provider, sourceID: $0.0), fuel: $0.1, price: PriceTenths(tenths: $0.2), day: $0.3) },
            asOf: asOf)
        let (merged, report) = Dataset().merging(update, source: .live, at: asOf)
        precondition(report.isApplied, "fixture update not applied: \(report.outcome)")
        return merged
    }

    /// The text between `<tag` ... `</tag>` of the first such element, for focused assertions.
    static func element(_ tag: String, in html: String) -> String? {
        guard let start = html.range(of: "<\(tag)"), let end = html.range(of: "</\(tag.split(separator: " ")[0])>", range: start.upperBound..<html.endIndex) else {
            return nil
        }
        return String(html[start.lowerBound..<end.upperBound])
    }
}
