/// Which state an alert keeps: per station for the price kinds, one per alert (station 0) for `cheapest_changed`.
public struct AlertStateKey: Hashable, Sendable {
    public var alertID: Int64
    public var station: StationID

    public init(alertID: Int64, station: StationID) {
        self.alertID = alertID
        self.station = station
    }

    /// The key of an alert's whole-area state (`cheapest_changed`).
    public static func area(_ alertID: Int64) -> AlertStateKey { AlertStateKey(alertID: alertID, station: StationID(0)) }
}

/// What an alert remembers between snapshots. Absent means the defaults: armed, and nothing to measure from yet.
public struct AlertState: Hashable, Sendable {
    /// `price_below`: armed until it fires; re-armed `PriceBelowRule.rearmMargin` above the threshold.
    public var armed: Bool
    /// `price_drop`/`price_rise`: the price moves are measured from (last notified, or first seen);
    /// `cheapest_changed`: the cheapest price last notified.
    public var reference: PriceTenths?
    /// `cheapest_changed`: the station that was cheapest when last notified.
    public var referenceStation: StationID?

    public init(armed: Bool = true, reference: PriceTenths? = nil, referenceStation: StationID? = nil) {
        self.armed = armed
        self.reference = reference
        self.referenceStation = referenceStation
    }
}

public typealias AlertStates = [AlertStateKey: AlertState]
