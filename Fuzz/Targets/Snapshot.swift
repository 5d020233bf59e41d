// libFuzzer target `snapshot`: arbitrary bytes as the data directory's `snapshot.bin`, through both load paths
// (an old unsealed file, checked value by value; and a file sealed over the bytes, as a bit flip behind a
// recomputed checksum would be). Invariants: no trap or runaway allocation, and whatever decodes is within the
// load limits and survives its own encode/decode round trip.
import Foundation
@testable import Fuel
@testable import PettyPersistence

private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("snapshot invariant violated: \(message())") }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    for candidate in [bytes, FileSeal.seal(bytes)] {
        let payload: [UInt8]
        switch FileSeal.open(candidate) {
        case .verified(let inner), .unsealed(let inner): payload = inner
        case .mismatch: continue
        }
        guard let snapshot = try? SnapshotCodec.decode(payload) else { continue }
        for entry in snapshot.entries {
            check(entry.id.rawValue >= 1 && entry.id.rawValue <= LoadLimits.maxStationID, "id \(entry.id)")
            check(entry.station.location.latitude.isFinite && entry.station.location.longitude.isFinite, "non-finite location")
        }
        guard let encoded = try? SnapshotCodec.encode(snapshot) else {
            fatalError("a decoded snapshot does not encode")
        }
        guard let again = try? SnapshotCodec.decode(encoded) else { fatalError("a re-encoded snapshot does not decode") }
        check(again.entries.count == snapshot.entries.count, "round trip changed the station count")
    }
    return 0
}
