/// The national fuel grades (PROVIDERS.md §7). Raw values are the codes clients send (`fuel=U91`).
public enum FuelType: String, CaseIterable, Codable, Sendable, Comparable {
    case U91, E10, P95, P98, E5, DL, PDL, LPG, E85, B20, LAF, CNG, LNG, LRP

    public var displayName: String {
        switch self {
        case .U91: "Unleaded 91"
        case .E10: "E10"
        case .P95: "Premium 95"
        case .P98: "Premium 98"
        case .E5: "Premium E5"
        case .DL: "Diesel"
        case .PDL: "Premium Diesel"
        case .LPG: "LPG"
        case .E85: "E85"
        case .B20: "Biodiesel B20"
        case .LAF: "Low Aromatic Fuel"
        case .CNG: "CNG"
        case .LNG: "LNG"
        case .LRP: "Lead Replacement"
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
