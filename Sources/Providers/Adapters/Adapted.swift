import Fuel
import Foundation

/// One adapter's result: the domain update plus what was skipped on the way.
public struct Adapted: Sendable {
    public var update: ProviderUpdate
    public var tally: AdapterTally

    public init(update: ProviderUpdate, tally: AdapterTally = AdapterTally()) {
        self.update = update
        self.tally = tally
    }

    /// Joins updates of one provider polled together (e.g. WA's per-product feeds) into one update.
    /// Stations are de-duplicated by key (the later payload wins); prices and tomorrow records are concatenated;
    /// `asOf` is the newest; the result is a delta only if every part is.
    /// Returns nil for an empty list. All parts must belong to the same provider.
    public static func combining(_ parts: [Adapted]) -> Adapted? {
        guard let first = parts.first else { return nil }
        precondition(parts.allSatisfy { $0.update.provider == first.update.provider }, "combining updates of different providers")
        var stationIndex: [StationKey: Int] = [:]
        var stations: [StationRecord] = []
        var prices: [PriceRecord] = []
        var tomorrow: [TomorrowPriceRecord] = []
        var tally = AdapterTally()
        for part in parts {
            for station in part.update.stations {
                if let index = stationIndex[station.key] {
                    stations[index] = station
                } else {
                    stationIndex[station.key] = stations.count
                    stations.append(station)
                }
            }
            prices += part.update.prices
            tomorrow += part.update.tomorrow
            tally.merge(part.tally)
        }
        let update = ProviderUpdate(
            provider: first.update.provider, stations: stations, prices: prices, tomorrow: tomorrow,
            asOf: parts.map(\.update.asOf).max()!, isDelta: parts.allSatisfy(\.update.isDelta),
            // The oldest: one product's stale feed makes the joined update stale.
            tradingDay: parts.compactMap(\.update.tradingDay).min())
        return Adapted(update: update, tally: tally)
    }
}
