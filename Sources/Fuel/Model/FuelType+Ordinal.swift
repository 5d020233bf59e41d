// `OrdinalTests` checks these positions match `allCases`.
extension FuelType {
    /// Position in `allCases`, for array-indexed tables.
    var ordinal: Int {
        switch self {
        case .U91: 0
        case .E10: 1
        case .P95: 2
        case .P98: 3
        case .E5: 4
        case .DL: 5
        case .PDL: 6
        case .LPG: 7
        case .E85: 8
        case .B20: 9
        case .LAF: 10
        case .CNG: 11
        case .LNG: 12
        case .LRP: 13
        }
    }
}
