import Foundation

/// One item of the change feed a syncing client applies in order.
public struct ChangeEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// A fuel's current price (new, changed or promoted from tomorrow's).
        case price(PriceChange)
        /// The station's details or its set of prices and tomorrow prices changed: the client replaces the station
        /// and all its prices with the current ones.
        case station
        /// The station no longer lists this fuel.
        case priceRemoved(FuelType)
        /// The station is gone, with all its prices.
        case stationRemoved
    }

    public var kind: Kind
    public var changedAt: Date
    public var station: StationID
    public var state: AustralianState

    /// nil for an event about the station itself.
    public var fuel: FuelType? {
        switch kind {
        case .price(let change): change.fuel
        case .priceRemoved(let fuel): fuel
        case .station, .stationRemoved: nil
        }
    }

    var slot: Int { fuel.map { $0.ordinal + 1 } ?? 0 }

    /// The feed's order: instant, then station, then the station before its fuels.
    static func ordered(_ a: ChangeEvent, _ b: ChangeEvent) -> Bool {
        if a.changedAt != b.changedAt { return a.changedAt < b.changedAt }
        if a.station != b.station { return a.station < b.station }
        return a.slot < b.slot
    }
}
