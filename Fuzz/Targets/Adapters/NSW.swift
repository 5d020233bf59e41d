// libFuzzer target `nsw`: arbitrary bytes as a NSW FuelCheck `/prices` (or `/prices/new`) body.
// The input's size picks the delta flag and timestamp zone, so one corpus covers all four modes.
import Foundation
@testable import Providers

private let sydney = TimeZone(identifier: "Australia/Sydney")

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let payload = fuzzData(data, size)
    let zone: NSWFuelCheckAdapter.TimestampZone = size & 2 != 0 ? (sydney.map { .local($0) } ?? .utc) : .utc
    guard let updates = try? NSWFuelCheckAdapter.adapt(payload, isDelta: size & 1 != 0, timestamps: zone, fetchedAt: fuzzFetchedAt)
    else { return 0 }
    fuzzCheck(updates.first?.update.provider == .nsw, "first update is not NSW")
    for adapted in updates { fuzzCheck(adapted) }
    return 0
}
