/// `cheapest_changed`: the cheapest counted price in the area moved to another station, or dropped by at least
/// `change` from the cheapest last notified. Before any notification the first cheapest seen is the reference.
public enum CheapestChangedRule {
    public enum Outcome: Sendable, Equatable {
        /// Nothing to say; the reference stays (or is first set to `state`).
        case quiet(AlertState)
        case moved(AlertState)
        case dropped(by: PriceTenths, AlertState)
    }

    public static func evaluate(cheapest: StationID, price: PriceTenths, reference: AlertState?, change: PriceTenths) -> Outcome {
        let now = AlertState(armed: true, reference: price, referenceStation: cheapest)
        guard let reference, let station = reference.referenceStation, let was = reference.reference else { return .quiet(now) }
        if station != cheapest { return .moved(now) }
        let dropped = was.tenths - price.tenths
        return dropped >= change.tenths ? .dropped(by: PriceTenths(tenths: dropped), now) : .quiet(reference)
    }
}
