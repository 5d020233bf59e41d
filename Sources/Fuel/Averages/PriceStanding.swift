import Foundation

/// Why a price on a station does not count: shown with the price, left out of averages, trends and rankings.
public struct PriceStanding: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Set more than `PricePolicy.currentWithinDays` before its provider's as-of instant.
    public static let stale = PriceStanding(rawValue: 1)
    /// More than `PricePolicy.implausibleDeviation` away from its state's median for the fuel.
    public static let implausible = PriceStanding(rawValue: 2)

    /// Current and plausible.
    public static let counts: PriceStanding = []
}

/// The per-snapshot rules that decide each price's standing: one cut-off per provider (its `asOf` minus
/// `PricePolicy.currentMaxAge`; providers without an `asOf` have none) and one median per state and fuel,
/// taken over the current prices. Pure; computed once per snapshot.
public struct PriceJudge: Sendable, Hashable {
    /// Prices set before these instants are stale.
    public let cutoffs: [ProviderID: Date]
    /// Median in tenths of the current prices per state and fuel.
    public let medians: [StateFuel: Double]

    public init(snapshot: Snapshot) {
        var cutoffs: [ProviderID: Date] = [:]
        for status in snapshot.statuses {
            if let asOf = status.asOf { cutoffs[status.provider] = asOf.addingTimeInterval(-PricePolicy.currentMaxAge) }
        }
        var current: [StateFuel: [Int]] = [:]
        for entry in snapshot.entries {
            let cutoff = cutoffs[entry.station.provider]
            for price in entry.prices {
                if let cutoff, price.updatedAt < cutoff { continue }
                current[StateFuel(entry.station.state, price.fuel), default: []].append(price.price.tenths)
            }
        }
        self.cutoffs = cutoffs
        self.medians = current.mapValues { Self.median(of: $0) }
    }

    public func standing(of price: StationPrice, at station: Station) -> PriceStanding {
        var standing: PriceStanding = []
        if let cutoff = cutoffs[station.provider], price.updatedAt < cutoff { standing.insert(.stale) }
        if let median = medians[StateFuel(station.state, price.fuel)], median > 0,
            abs(Double(price.price.tenths) - median) > PricePolicy.implausibleDeviation * median
        {
            standing.insert(.implausible)
        }
        return standing
    }

    /// The middle value (the mean of the two middle values for an even count); 0 for none.
    public static func median(of values: [Int]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
    }
}
