/// What a station is and offers beyond its prices, as its provider publishes it.
public struct StationFacts: Hashable, Codable, Sendable {
    /// A fuel station, or an EV charging site (NSW FuelCheck lists chargers with only an `EV` price row).
    public var kind: StationKind
    /// Whether AdBlue is sold (NSW FuelCheck's `isAdBlueAvailable`); nil where the provider does not say.
    public var adBlue: Bool?

    public init(kind: StationKind = .fuel, adBlue: Bool? = nil) {
        self.kind = kind
        self.adBlue = adBlue
    }

    /// Nothing beyond the defaults: not worth carrying.
    public var isEmpty: Bool { self == StationFacts() }
}

/// `kind` on the wire.
public enum StationKind: String, Codable, Sendable, CaseIterable {
    case fuel
    case ev
}

/// Which kinds a station list keeps. Lists and searches show fuel stations unless asked otherwise; favourites by id
/// show whatever kind each station is.
public enum KindFilter: Hashable, Sendable {
    /// Fuel stations, except for a list of ids (favourites), which keeps every kind.
    case usual
    case only(StationKind)
    case any

    /// The kind a query keeps, or nil for every kind.
    public func kept(forIDs: Bool) -> StationKind? {
        switch self {
        case .usual: forIDs ? nil : .fuel
        case .only(let kind): kind
        case .any: nil
        }
    }
}

extension Station {
    /// `fuel` unless the provider says it is an EV charging site.
    public var kind: StationKind { record.facts?.kind ?? .fuel }
}
