/// The per-station rules of the price kinds, as pure functions of the state kept in `alert_states`.
public enum PriceBelowRule {
    /// How far above the threshold the price must climb before the alert may fire again: 1.0 c/L.
    public static let rearmMargin = PriceTenths(tenths: 10)

    public struct Outcome: Sendable, Equatable {
        public var fires: Bool
        public var armed: Bool

        public init(fires: Bool, armed: Bool) {
            self.fires = fires
            self.armed = armed
        }
    }

    /// Fires on the crossing (armed, and the price at or below the threshold), then stays quiet until the price is
    /// at least `rearmMargin` above the threshold. A new alert starts armed: a price already below fires once.
    public static func evaluate(price: PriceTenths, threshold: PriceTenths, armed: Bool) -> Outcome {
        if armed {
            return price <= threshold ? Outcome(fires: true, armed: false) : Outcome(fires: false, armed: true)
        }
        return Outcome(fires: false, armed: price.tenths >= threshold.tenths + rearmMargin.tenths)
    }
}

/// `price_drop` / `price_rise`: a move of at least `change` from the price last notified about that station, or,
/// before any notification, from the price when the alert first saw the station.
public enum PriceMoveRule {
    public enum Direction: Sendable { case drop, rise }

    public struct Outcome: Sendable, Equatable {
        public var fires: Bool
        /// What later moves are measured from.
        public var reference: PriceTenths

        public init(fires: Bool, reference: PriceTenths) {
            self.fires = fires
            self.reference = reference
        }
    }

    public static func evaluate(price: PriceTenths, reference: PriceTenths?, change: PriceTenths, direction: Direction) -> Outcome {
        guard let reference else { return Outcome(fires: false, reference: price) }
        let moved = direction == .drop ? reference.tenths - price.tenths : price.tenths - reference.tenths
        return moved >= change.tenths ? Outcome(fires: true, reference: price) : Outcome(fires: false, reference: reference)
    }
}
