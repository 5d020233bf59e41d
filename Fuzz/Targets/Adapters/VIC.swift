// libFuzzer target `vic`: arbitrary bytes as a VIC Fair Fuel `/fuel/prices` body and as `/reference-data/brands`.
import Foundation
@testable import Providers

private let knownBrands = ["1": "7-Eleven", "2": "BP"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzBrandedAdapter(data, size, known: knownBrands, adapt: FairFuelAdapter.adapt, brands: FairFuelAdapter.brands)
}
