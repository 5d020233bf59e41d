import Foundation

/// One observed price change at a station, packed into 8 bytes so 90 days of every station's changes stay small:
/// seconds since `PriceMark.epoch` (2020-01-01 UTC; Int32 reaches 2088) and the price in tenths (Int16 reaches
/// 3,276.7 c/L, far above the merge's plausibility bound).
public struct PriceMark: Hashable, Sendable {
    public var seconds: Int32
    public var tenths: Int16

    public static let epoch = Date(timeIntervalSince1970: 1_577_836_800)

    public init(seconds: Int32, tenths: Int16) {
        self.seconds = seconds
        self.tenths = tenths
    }

    /// Instants before the epoch clamp to it, prices outside Int16 to its bounds.
    public init(at instant: Date, price: PriceTenths) {
        let offset = instant.timeIntervalSince(Self.epoch).rounded(.down)
        seconds = offset.isFinite ? Int32(clamping: Int64(max(min(offset, Double(Int32.max)), 0))) : 0
        tenths = Int16(clamping: price.tenths)
    }

    public var at: Date { Self.epoch.addingTimeInterval(TimeInterval(seconds)) }
    public var price: PriceTenths { PriceTenths(tenths: Int(tenths)) }
}
