/// "Worth the drive": what filling up at a station costs once the drive there and back is counted.
///
/// `fill_cost` = price × (`litres` + 2 × distance × `l_per_100km` / 100), in dollars rounded to the cent (half a cent
/// up), where price is the station's price of the fuel (cents per litre: the fuel burned is bought back at the pump you
/// drive to) and distance the straight-line (great-circle) km from `near` exactly as served in `distance_km` (to the
/// hundredth of a km), with `litres` and `l_per_100km` as `meta.fill` serves them (to the hundredth). Computed in whole
/// numbers, so a client recomputing it from the response gets the same cent, ties included.
public struct FillPlan: Hashable, Sendable {
    /// Litres to buy.
    public var litres: Double
    /// The car's consumption, litres per 100 km.
    public var litresPer100Km: Double

    public static let defaultLitres = 40.0
    public static let defaultLitresPer100Km = 8.0
    /// From a jerry can to a truck's tank.
    public static let litresRange = 1.0...200.0
    /// From a small hybrid to a heavy four-wheel drive towing.
    public static let litresPer100KmRange = 2.0...30.0

    public init(litres: Double = FillPlan.defaultLitres, litresPer100Km: Double = FillPlan.defaultLitresPer100Km) {
        self.litres = litres
        self.litresPer100Km = litresPer100Km
    }

    /// Litres paid for at a station `distanceKm` away: the fill plus the fuel burned there and back.
    public func litresPaid(distanceKm: Double) -> Double {
        litres + 2 * distanceKm * litresPer100Km / 100
    }

    /// The fill cost in whole cents (half a cent rounds up), for a price in tenths of a cent per litre, from the
    /// distance as served (hundredths of a km) and the plan as served (hundredths of a litre and of L/100 km):
    /// price/10 × (L/100 + 2 × D/100 × C/100 / 100) = P × (L × 10⁴ + 2 × D × C) / 10⁷ cents.
    public func costCents(priceTenths: Int, distanceKm: Double) -> Int {
        let distance = Self.hundredths(distanceKm)
        let paid = litresHundredths * 10_000 + 2 * distance * consumptionHundredths
        return (priceTenths * paid + 5_000_000) / 10_000_000
    }

    /// `litres` as served, in hundredths.
    public var litresHundredths: Int { Self.hundredths(litres) }
    /// `litresPer100Km` as served, in hundredths.
    public var consumptionHundredths: Int { Self.hundredths(litresPer100Km) }

    /// A non-negative figure as the JSON writer serves it to two places (halves away from zero), in hundredths; a
    /// distance beyond any Australian one is capped, so the products stay far inside `Int`.
    @inline(__always)
    static func hundredths(_ value: Double) -> Int {
        let scaled = min(max(value, 0), 100_000) * 100
        let whole = Int(scaled)
        return whole + (scaled - Double(whole) >= 0.5 ? 1 : 0)
    }

    public var isValid: Bool {
        Self.litresRange.contains(litres) && Self.litresPer100KmRange.contains(litresPer100Km)
    }
}

/// The station `saving` is measured against: the nearest match whose price of the fuel counts (current and
/// plausible), nearest first, then lowest slot.
public struct FillReference: Hashable, Sendable {
    /// Index into `snapshot.entries`.
    public var slot: Int
    public var costCents: Int
}
