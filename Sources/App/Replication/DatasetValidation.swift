import Foundation
import Fuel

/// Every value of a dataset copied from the leader, checked before it can reach the store, the index or a
/// renderer: a NaN coordinate or a 2^33 id must be refused here, not trap a follower later.
enum DatasetValidation {
    static let maxStations = 100_000
    /// The files' limit (`LoadLimits`): one limit on station ids everywhere.
    static let maxStationID = LoadLimits.maxStationID
    static let maxTextBytes = 512
    static let maxKeyBytes = 128
    static let maxPointsPerSeries = 1_000
    /// Instants from 1970 to 2200: anything else is garbage or a unit slip, and formatters need finite dates.
    static let instants: ClosedRange<Double> = 0...7_258_118_400

    /// The first problem found, or nil when every value is in range.
    static func problem(in dataset: Dataset) -> String? {
        problem(in: dataset.snapshot) ?? problem(in: dataset.registry) ?? problem(in: dataset.history)
    }

    static func problem(in snapshot: Snapshot) -> String? {
        guard snapshot.stationCount <= maxStations else { return "\(snapshot.stationCount) stations, over the \(maxStations) limit" }
        if let changedAt = snapshot.changedAt, !valid(changedAt) { return "snapshot changedAt out of range" }
        for status in snapshot.statuses {
            if let problem = problem(in: status) { return "\(status.provider.rawValue) status: \(problem)" }
        }
        for entry in snapshot.entries {
            if let problem = problem(in: entry) { return "station \(entry.id): \(problem)" }
        }
        return nil
    }

    private static func problem(in entry: StationEntry) -> String? {
        let station = entry.station
        guard (1...maxStationID).contains(station.id.rawValue) else { return "id out of range 1...\(maxStationID)" }
        guard (1...maxKeyBytes).contains(station.sourceID.utf8.count) else { return "source id length out of range" }
        for text in [station.name, station.brand, station.address, station.suburb, station.postcode ?? ""]
        where text.utf8.count > maxTextBytes {
            return "text longer than \(maxTextBytes) bytes"
        }
        guard station.location.isValid else { return "coordinate out of range" }
        guard entry.prices.count <= FuelType.allCases.count else { return "\(entry.prices.count) prices" }
        for price in entry.prices {
            guard PricePolicy.kept.contains(price.price) else { return "implausible \(price.fuel.rawValue) price \(price.price)" }
            guard valid(price.updatedAt), price.seenAt.map(valid) ?? true else { return "price time out of range" }
            if let tomorrow = price.tomorrow {
                guard PricePolicy.plausible.contains(tomorrow.price), CalendarDay(tomorrow.day) != nil else {
                    return "implausible tomorrow price"
                }
            }
        }
        for only in entry.tomorrowOnly {
            guard PricePolicy.plausible.contains(only.tomorrow.price), CalendarDay(only.tomorrow.day) != nil else {
                return "implausible tomorrow price"
            }
        }
        return nil
    }

    private static func problem(in status: ProviderStatus) -> String? {
        let instants = [status.asOf, status.tomorrow?.heldSince]
        guard instants.allSatisfy({ $0.map(valid) ?? true }) else { return "time out of range" }
        guard (0...maxStations).contains(status.stationCount), (0...maxStations * FuelType.allCases.count).contains(status.priceCount),
              (status.growthRejections ?? 0) >= 0
        else { return "count out of range" }
        return nil
    }

    static func problem(in registry: StationRegistry) -> String? {
        guard (0...maxStationID).contains(registry.lastAssigned) else { return "registry: last id out of range" }
        for (key, _) in registry.assignments where !(1...maxKeyBytes).contains(key.sourceID.utf8.count) {
            return "registry: source id length out of range"
        }
        return nil
    }

    static func problem(in history: History) -> String? {
        let cents = PricePolicy.plausible.lowerBound.cents...PricePolicy.plausible.upperBound.cents
        // State series and metro series (`History.metro`) are checked alike.
        for (key, points) in history.series.map({ ("\($0.key)", $0.value) }) + history.metro.map({ ("\($0.key)", $0.value) }) {
            guard points.count <= maxPointsPerSeries else { return "history: \(points.count) points for \(key)" }
            for point in points {
                guard CalendarDay(point.day) != nil, point.average.isFinite, cents.contains(point.average),
                      PricePolicy.plausible.contains(point.min), PricePolicy.plausible.contains(point.max),
                      (0...maxStations).contains(point.stationCount)
                else { return "history: implausible point on \(point.day.prefix(10))" }
            }
        }
        return nil
    }

    private static func valid(_ date: Date) -> Bool { instants.contains(date.timeIntervalSince1970) }
}
