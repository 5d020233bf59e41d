import Foundation
import Fuel

/// One price as clients see it: cents per litre with one decimal (189.9).
struct CentsValue: Codable, Sendable, Hashable {
    let tenths: PriceTenths

    init(_ tenths: PriceTenths) { self.tenths = tenths }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Decimal(tenths.tenths) / 10)
    }

    init(from decoder: Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Double.self)
        tenths = PriceTenths(cents: value)
    }
}

/// A rounded decimal for averages and distances (two places).
struct Rounded: Codable, Sendable, Hashable {
    let value: Double

    init(_ value: Double, places: Int = 2) {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        self.value = (value * scale).rounded() / scale
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Decimal(string: String(value)) ?? Decimal(value))
    }

    init(from decoder: Decoder) throws {
        value = try decoder.singleValueContainer().decode(Double.self)
    }
}

struct AverageDTO: Codable, Sendable {
    var state: String
    /// Absent for the state row; `metro` or `regional` for a region row (WA).
    var region: String?
    var fuel: String
    var fuelName: String
    var average: Rounded
    var median: Rounded
    var min: CentsValue
    var max: CentsValue
    var stationCount: Int
    /// Only prices set within this many days count (`PricePolicy.currentWithinDays`).
    var currentWithinDays: Int

    init(_ average: FuelAverage) {
        state = average.state.rawValue
        region = average.region?.rawValue
        fuel = average.fuel.rawValue
        fuelName = average.fuel.displayName
        self.average = Rounded(average.average)
        median = Rounded(average.median)
        min = CentsValue(average.min)
        max = CentsValue(average.max)
        stationCount = average.stationCount
        currentWithinDays = PricePolicy.currentWithinDays
    }
}

struct TrendDTO: Codable, Sendable {
    struct Point: Codable, Sendable {
        var day: String
        var average: Rounded
        var min: CentsValue
        var max: CentsValue
        var stationCount: Int
    }

    struct CycleDTO: Codable, Sendable {
        var position: Rounded
        var direction: String
        var change: Rounded
        var low: Rounded
        var high: Rounded
    }

    var state: String
    var fuel: String
    var days: Int
    var through: String?
    var points: [Point]
    var cycle: CycleDTO?
}

struct TomorrowDTO: Codable, Sendable {
    struct StationVerdict: Codable, Sendable {
        var stationId: Int
        var name: String
        var brand: String
        var suburb: String
        var fuel: String
        var today: CentsValue
        var tomorrow: CentsValue
        var difference: Rounded
        var verdict: String
        var distanceKm: Rounded?
    }

    struct Summary: Codable, Sendable {
        var todayCheaper: Int
        var tomorrowCheaper: Int
        var same: Int
    }

    var state: String
    var fuel: String?
    var available: Bool
    var reason: String?
    var tradingDay: String?
    var publishedAt: String?
    var expectedAt: String?
    var summary: Summary?
    var stations: [StationVerdict]
}
