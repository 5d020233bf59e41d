import Foundation
import Fuel

/// What a loaded value may be. Files (and the leader's wire body) pass through these before anything uses them,
/// so a damaged value is reported as corruption instead of trapping later (NaN in the grid index, an overflowing
/// price sum, an absurd allocation).
enum LoadLimits {
    /// One limit on station ids everywhere: the files, the fleet's id mark and replication
    /// (`DatasetValidation.maxStationID` reads it), so no mark a member accepts makes its datasets unfollowable.
    /// Ids are assigned 1, 2, 3, ... by the registry; anything near this is not our data.
    static let maxStationID = 10_000_000
    static let maxStations = 1_000_000
    static let maxPricesPerStation = 64
    static let maxStringBytes = 65_536
    static let maxStatusesBytes = 1 << 20
    static let prices = 1...100_000
    static let maxCount = 100_000_000
    /// Years 1 to 9999: wide enough for any date a provider may send, narrow enough that date arithmetic and
    /// formatting never overflow (NaN and infinities are outside too).
    static let instants = -62_135_596_800.0...253_402_300_799.0

    struct Invalid: Error, CustomStringConvertible {
        let description: String
    }

    static func check(_ condition: Bool, _ what: @autoclosure () -> String) throws {
        guard condition else { throw Invalid(description: "invalid \(what())") }
    }

    static func check(id: Int) throws { try check((1...maxStationID).contains(id), "station id \(id)") }
    static func check(price tenths: Int) throws { try check(prices.contains(tenths), "price \(tenths)") }
    static func check(instant: Double, _ what: String) throws { try check(instants.contains(instant), "\(what) \(instant)") }
    static func check(count: Int, _ what: String) throws { try check((0...maxCount).contains(count), "\(what) \(count)") }

    static func check(_ location: Coordinate) throws {
        try check(
            (-90.0...90.0).contains(location.latitude) && (-180.0...180.0).contains(location.longitude),
            "coordinate \(location.latitude),\(location.longitude)")
    }

    static func check(_ status: ProviderStatus) throws {
        for (date, name) in [(status.asOf, "asOf"), (status.tomorrow?.heldSince, "tomorrow.heldSince")] {
            if let date { try check(instant: date.timeIntervalSince1970, "\(status.provider.rawValue) \(name)") }
        }
        try check(count: status.growthRejections ?? 0, "growth rejections")
        try check(count: status.stationCount, "station count")
        try check(count: status.priceCount, "price count")
        if let day = status.tomorrow?.day { try check(instant: Double(day.dayNumber) * 86_400, "\(status.provider.rawValue) tomorrow.day") }
        if let day = status.describedDay { try check(instant: Double(day.dayNumber) * 86_400, "\(status.provider.rawValue) describedDay") }
        try check(count: status.pendingRemoval?.count ?? 0, "pending removals")
        for (sourceID, absences) in status.pendingRemoval ?? [:] {
            try check(sourceID.utf8.count <= maxStringBytes, "pending removal source id length")
            try check(count: absences, "pending removal count")
        }
    }

    static func check(_ registry: StationRegistry) throws {
        try check((0...maxStationID).contains(registry.lastAssigned), "registry lastAssigned \(registry.lastAssigned)")
        try check(registry.count <= maxStations, "registry size \(registry.count)")
        for (key, id) in registry.assignments {
            try check(id: id.rawValue)
            try check(key.sourceID.utf8.count <= maxStringBytes, "registry source id length")
        }
    }

    static func check(_ history: History) throws {
        // State series and metro series (`History.metro`) are checked alike.
        for (key, points) in history.series.map({ ("\($0.key)", $0.value) }) + history.metro.map({ ("\($0.key)", $0.value) }) {
            try check(points.count <= 10_000, "\(key) history length \(points.count)")
            for point in points {
                try check(CalendarDay(point.day) != nil, "history day \(point.day.prefix(32))")
                try check(point.average.isFinite && Double(prices.lowerBound) / 10 <= point.average
                    && point.average <= Double(prices.upperBound) / 10, "history average \(point.average)")
                try check(price: point.min.tenths)
                try check(price: point.max.tenths)
                try check(count: point.stationCount, "history station count")
            }
        }
    }
}
