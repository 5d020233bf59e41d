// Shared by the adapter targets: output checks that hold for every adapter whatever the input.
import Foundation
import Fuel
@testable import Providers

/// A fixed fetch time (2026-01-15T02:32:51Z), so runs are reproducible.
let fuzzFetchedAt = Date(timeIntervalSince1970: 1_768_444_371)

func fuzzCheck(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("adapter invariant violated: \(message())") }
}

/// Prices are positive and at most `PriceGuard.maxCents` (others are skipped and counted, never kept), instants are
/// finite, and the tally never goes negative.
func fuzzCheck(_ adapted: Adapted) {
    let update = adapted.update
    fuzzCheck(update.asOf.timeIntervalSince1970.isFinite, "asOf not finite")
    for price in update.prices {
        fuzzCheck(price.price.tenths > 0, "non-positive price \(price.price.tenths) kept for \(price.station)")
        fuzzCheck(price.price.tenths <= 1_000_000, "price \(price.price.tenths) over PriceGuard.maxCents kept for \(price.station)")
        fuzzCheck(price.updatedAt.timeIntervalSince1970.isFinite, "updatedAt not finite")
    }
    for price in update.tomorrow {
        fuzzCheck(price.price.tenths > 0, "non-positive tomorrow price \(price.price.tenths) kept for \(price.station)")
        fuzzCheck(price.price.tenths <= 1_000_000, "tomorrow price \(price.price.tenths) over PriceGuard.maxCents kept")
    }
    for (_, count) in adapted.tally.counts { fuzzCheck(count > 0, "tally count \(count)") }
    _ = adapted.tally.description
    _ = Adapted.combining([adapted, adapted])
}

/// Payload bytes as `Data` (copied: adapters may keep slices).
func fuzzData(_ data: UnsafePointer<UInt8>, _ size: Int) -> Data {
    Data(bytes: data, count: size)
}

/// The targets of adapters that name brands from a second endpoint: the bytes as a price payload (with `known`
/// brands) and as that endpoint's brand list.
func fuzzBrandedAdapter(
    _ data: UnsafePointer<UInt8>, _ size: Int, known: [String: String],
    adapt: (Data, [String: String], Date) throws(AdapterError) -> Adapted,
    brands: (Data) throws(AdapterError) -> [String: String]
) -> CInt {
    let payload = fuzzData(data, size)
    if let adapted = try? adapt(payload, known, fuzzFetchedAt) {
        fuzzCheck(adapted)
    }
    _ = try? brands(payload)
    return 0
}
