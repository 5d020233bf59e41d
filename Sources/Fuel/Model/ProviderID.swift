/// A source of fuel data. Raw values are the names used in configuration (`PETTY_PROVIDERS=nsw,wa`).
public enum ProviderID: String, CaseIterable, Codable, Sendable, Comparable {
    case nsw, tas, wa, qld, sa, vic

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

/// A station's identity at its provider. Codes collide across providers (NSW and TAS share a code space),
/// so the provider is part of the key.
public struct StationKey: Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    public var provider: ProviderID
    public var sourceID: String

    public init(provider: ProviderID, sourceID: String) {
        self.provider = provider
        self.sourceID = sourceID
    }

    public var description: String { "\(provider.rawValue):\(sourceID)" }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.provider, lhs.sourceID) < (rhs.provider, rhs.sourceID)
    }
}
