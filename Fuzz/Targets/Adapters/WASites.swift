// libFuzzer target `wa-sites`: arbitrary bytes as a FuelWatch `/api/sites` body and as `/api/brands`.
import Foundation
@testable import Providers

private let knownBrands = ["VIB": "Vibe", "BP": "BP", "CAL": "Caltex"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    fuzzBrandedAdapter(data, size, known: knownBrands, adapt: FuelWatchSitesAdapter.adapt, brands: FuelWatchSitesAdapter.brands)
}
