// libFuzzer target `support`: the adapters' hand-written text scanners on arbitrary text, without a JSON or
// XML envelope around them (so mutations reach them directly): `AddressParser`, `WireTime`, `RSSItems`-free
// helpers. Invariants: a parsed postcode is 4 digits, a parsed wall time is finite and round-trips its day.
import Foundation
@testable import Providers

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let parts = AddressParser.parse(text)
    if let postcode = parts.postcode {
        fuzzCheck(postcode.utf8.count == 4 && postcode.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }, "postcode \(postcode)")
    }
    _ = AddressParser.normalisedSuburb(text)
    _ = AddressParser.isACTPostcode(text)
    if let seconds = WireTime.naiveSeconds(text) {
        fuzzCheck(seconds.isFinite, "naiveSeconds not finite")
    }
    if let days = WireTime.days(isoDay: text) {
        fuzzCheck(WireTime.days(isoDay: WireTime.dayString(days: days)) == days, "day \(days) does not round-trip")
    }
    _ = FuelWatchRSSAdapter.normalisedName(text)
    _ = FuelWatchProduct(shortName: text)
    return 0
}
