// `OrdinalTests` checks these positions match `allCases`.
extension AustralianState {
    /// Position in `allCases`, for array-indexed tables.
    var ordinal: Int {
        switch self {
        case .NSW: 0
        case .ACT: 1
        case .VIC: 2
        case .QLD: 3
        case .SA: 4
        case .WA: 5
        case .TAS: 6
        case .NT: 7
        }
    }
}
