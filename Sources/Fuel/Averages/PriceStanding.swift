import Foundation

/// Why a price on a station does not count: shown with the price, left out of averages, trends and rankings.
public struct PriceStanding: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Set more than `PricePolicy.currentWithinDays` before its provider's as-of instant, and not confirmed by a
    /// full feed within them (`PricePolicy.fullFeedConfirms`); or held from a live provider quiet for longer than its limit
    /// (`QuietProviders`).
    public static let stale = PriceStanding(rawValue: 1)
    /// Outside `PricePolicy.plausible` or its state's band for the fuel (`PlausibleBand`), or a placeholder value
    /// (`PlaceholderPrices`).
    public static let implausible = PriceStanding(rawValue: 2)

    /// Current and plausible.
    public static let counts: PriceStanding = []
}

/// The per-snapshot rules that decide each price's standing: one cut-off per provider (its `asOf` minus
/// `PricePolicy.currentMaxAge`; providers without an `asOf` have none, and so does a provider whose full feed,
/// merged within the window, confirmed every price it lists, except for the stations it no longer listed), one plausible band per state and fuel
/// (`PlausibleBand`, over the current prices) and the placeholder prices it exposes (`PlaceholderPrices`): one rule,
/// applied the same way to every fuel of every station. Pure; computed once per snapshot.
public struct PriceJudge: Sendable, Hashable {
    /// Prices set before these instants are stale.
    public let cutoffs: [ProviderID: Date]
    /// Per provider whose last full feed confirmed its prices: the stations (source ids) it did not list, whose
    /// prices the cut-off still judges.
    public let unconfirmed: [ProviderID: Set<String>]
    /// Median in tenths of the current prices per state and fuel.
    public let medians: [StateFuel: Double]
    /// Where a price may lie, per state and fuel.
    public let bands: [StateFuel: PlausibleBand]
    /// Prices that are one value typed into several pumps, found out by the bands.
    public let placeholders: PlaceholderPrices

    public init(snapshot: Snapshot) {
        var cutoffs: [ProviderID: Date] = [:]
        var unconfirmed: [ProviderID: Set<String>] = [:]
        for status in snapshot.statuses {
            guard let asOf = status.asOf else { continue }
            // A provider quiet for longer than its limit (`QuietProviders`): every price it holds is stale.
            if status.staleSince != nil {
                cutoffs[status.provider] = .distantFuture
                continue
            }
            let cutoff = asOf.addingTimeInterval(-PricePolicy.currentMaxAge)
            cutoffs[status.provider] = cutoff
            if PricePolicy.fullFeedConfirms.contains(status.provider), let full = status.fullFeedAt, full >= cutoff {
                unconfirmed[status.provider] = Set(status.pendingRemoval?.keys.map { $0 } ?? [])
            }
        }
        self.cutoffs = cutoffs
        self.unconfirmed = unconfirmed
        var current: [StateFuel: [Int]] = [:]
        for entry in snapshot.entries {
            for price in entry.prices {
                if Self.isStale(price, at: entry.station, cutoffs: cutoffs, unconfirmed: unconfirmed) { continue }
                guard PricePolicy.plausible.contains(price.price) else { continue }
                current[StateFuel(entry.station.state, price.fuel), default: []].append(price.price.tenths)
            }
        }
        let medians = current.mapValues { Self.median(of: $0) }
        let bands = PlausibleBand.bands(medians: medians)
        self.medians = medians
        self.bands = bands
        self.placeholders = PlaceholderPrices(snapshot: snapshot, bands: bands)
    }

    public func standing(of price: StationPrice, at station: Station) -> PriceStanding {
        var standing: PriceStanding = []
        if Self.isStale(price, at: station, cutoffs: cutoffs, unconfirmed: unconfirmed) { standing.insert(.stale) }
        let band = bands[StateFuel(station.state, price.fuel)]
        if !PricePolicy.plausible.contains(price.price) || band?.contains(price.price) == false
            || placeholders.contains(station.id, price.fuel)
        {
            standing.insert(.implausible)
        }
        return standing
    }

    /// Whether `price` of `fuel` in `state` is plausible (`PricePolicy.plausible` and the state's band), whatever its
    /// age: what a station's price history lists as a real price.
    public func isPlausible(_ price: PriceTenths, fuel: FuelType, in state: AustralianState) -> Bool {
        PricePolicy.plausible.contains(price) && bands[StateFuel(state, fuel)]?.contains(price) != false
    }

    private static func isStale(
        _ price: StationPrice, at station: Station, cutoffs: [ProviderID: Date], unconfirmed: [ProviderID: Set<String>]
    ) -> Bool {
        guard let cutoff = cutoffs[station.provider], price.updatedAt < cutoff else { return false }
        guard let pending = unconfirmed[station.provider] else { return true }
        return pending.contains(station.sourceID)
    }

    /// The middle value (the mean of the two middle values for an even count); 0 for none.
    public static func median(of values: [Int]) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? Double(sorted[middle]) : Double(sorted[middle - 1] + sorted[middle]) / 2
    }
}
