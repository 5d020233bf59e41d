/// "Worth the drive": what filling up at a station costs once the drive there and back is counted.
///
/// `fill_cost` = price × (`litres` + 2 × distance × `l_per_100km` / 100), in dollars rounded to the cent, where
/// price is the station's price of the fuel (cents per litre: the fuel burned is bought back at the pump you drive
/// to) and distance the straight-line (great-circle) km from `near`, the same `distance_km` every list reports.
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

    /// The fill cost in whole cents (half a cent rounds up), for a price in tenths of a cent per litre.
    public func costCents(priceTenths: Int, distanceKm: Double) -> Int {
        let cents = Double(priceTenths) * litresPaid(distanceKm: distanceKm) / 10
        // Half away from zero without libm's `round`, a call per station of every nearby list: below 2^52 the
        // fraction of a non-negative double is exact, so this is the same number.
        guard cents >= 0, cents < 0x1p52 else { return Int(cents.rounded(.toNearestOrAwayFromZero)) }
        let whole = Int(cents)
        return whole + (cents - Double(whole) >= 0.5 ? 1 : 0)
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
