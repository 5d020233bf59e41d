import Foundation
import Fuel

/// A FuelWatch product: the RSS `Product=N` number and the JSON API `fuelType` short name (PROVIDERS.md §2, §7).
public enum FuelWatchProduct: Int, CaseIterable, Sendable {
    case unleaded = 1
    case premiumUnleaded = 2
    case diesel = 4
    case lpg = 5
    case ron98 = 6
    case e85 = 10
    /// "Brand diesel", WA's premium diesel.
    case brandDiesel = 11

    public var fuel: FuelType {
        switch self {
        case .unleaded: .U91
        case .premiumUnleaded: .P95
        case .diesel: .DL
        case .lpg: .LPG
        case .ron98: .P98
        case .e85: .E85
        case .brandDiesel: .PDL
        }
    }

    /// The `/api/sites?fuelType=` value.
    public var shortName: String {
        switch self {
        case .unleaded: "ULP"
        case .premiumUnleaded: "PUP"
        case .diesel: "DSL"
        case .lpg: "LPG"
        case .ron98: "98R"
        case .e85: "E85"
        case .brandDiesel: "BDL"
        }
    }

    public init?(shortName: String) {
        guard let product = Self.allCases.first(where: { $0.shortName == shortName.uppercased() }) else { return nil }
        self = product
    }
}

/// Which FuelWatch day a payload describes.
public enum FuelWatchDay: Sendable {
    /// Prices in force now; each holds from 06:00 WST on its `<date>`.
    case today
    /// Tomorrow's prices, published about 14:30 WST; they become tomorrow records, never current prices.
    case tomorrow
}

/// WA clock arithmetic: UTC+8 all year, and the pricing day turns over at 06:00.
enum PerthTime {
    static let offsetSeconds = 8 * 3600
    static let dayStartSeconds = 6 * 3600

    /// The instant 06:00 WST begins on a day number.
    static func pricingStart(days: Int) -> Date {
        Date(timeIntervalSince1970: TimeInterval(days * WireTime.secondsPerDay - offsetSeconds + dayStartSeconds))
    }

    /// The pricing day (day number) in force at an instant: the WST date of `instant - 6 h`.
    static func pricingDay(at instant: Date) -> Int {
        let local = Int(instant.timeIntervalSince1970.rounded(.down)) + offsetSeconds - dayStartSeconds
        return local >= 0 ? local / WireTime.secondsPerDay : (local - WireTime.secondsPerDay + 1) / WireTime.secondsPerDay
    }
}
