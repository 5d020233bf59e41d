import Foundation

/// A current price, as listed by `changes(since:)` for clients syncing incrementally.
public struct PriceChange: Hashable, Sendable {
    public var station: StationID
    public var fuel: FuelType
    public var price: PriceTenths
    public var updatedAt: Date
    /// When this store first saw the price; what `changes(since:)` orders and pages by.
    public var changedAt: Date
}

extension FuelIndex {
    /// Current prices this store first saw strictly after `since`, oldest first (binary search, no scan).
    /// Prices a station no longer lists, and removed stations, are not reported.
    public func changes(since: Date) -> ArraySlice<PriceChange> {
        timeline[timeline.partitionPoint { $0.changedAt > since }...]
    }
}
