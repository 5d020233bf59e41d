// libFuzzer target `wa-rss`: arbitrary bytes as a FuelWatch RSS feed. The input's size picks the product
// and the day (today/tomorrow).
import Foundation
@testable import Providers

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let payload = fuzzData(data, size)
    let products = FuelWatchProduct.allCases
    let product = products[size % products.count]
    let day: FuelWatchDay = (size / products.count) & 1 == 0 ? .today : .tomorrow
    guard let adapted = try? FuelWatchRSSAdapter.adapt(payload, product: product, day: day, fetchedAt: fuzzFetchedAt)
    else { return 0 }
    fuzzCheck(adapted)
    fuzzCheck(day == .today ? adapted.update.tomorrow.isEmpty : adapted.update.prices.isEmpty, "prices on the wrong day")
    return 0
}
