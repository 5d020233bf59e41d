// The figure behind `ChangesController`'s hand-written items: a 500-item page of price changes encoded by
// Foundation's JSONEncoder (HTTP's `JSONCoding` configuration) and appended by hand, same bytes.
//   swiftc -O Benchmarks/helpers/codable_vs_writer.swift -o /tmp/codable_vs_writer && /tmp/codable_vs_writer
import Foundation
struct Item: Encodable { var type = "price"; var stationId: Int; var state: String; var fuel: String; var price: Double; var updatedAt: String; var changedAt: String; var stale: Bool? }
let items = (0..<500).map { Item(stationId: $0 + 1, state: "NSW", fuel: "U91", price: 180.9 + Double($0 % 30), updatedAt: "2026-11-24T03:12:45Z", changedAt: "2026-11-24T03:12:45Z", stale: nil) }
let encoder = JSONEncoder()
encoder.keyEncodingStrategy = .convertToSnakeCase
encoder.dateEncodingStrategy = .iso8601
encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
@inline(never) func codable() -> Int { try! encoder.encode(items).count }
@inline(never) func byHand() -> Int {
    var out: [UInt8] = []; out.reserveCapacity(256 + 64 * 160)
    func raw(_ s: StaticString) { s.withUTF8Buffer { out.append(contentsOf: $0) } }
    func str(_ s: String) { out.append(0x22); out.append(contentsOf: s.utf8); out.append(0x22) }
    func int(_ v: Int) { var v = v; var d: [UInt8] = []; repeat { d.append(UInt8(48 + v % 10)); v /= 10 } while v > 0; out.append(contentsOf: d.reversed()) }
    out.append(0x5B)
    for (i, item) in items.enumerated() {
        if i > 0 { out.append(0x2C) }
        raw("{\"type\":\"price\",\"station_id\":"); int(item.stationId)
        raw(",\"state\":"); str(item.state); raw(",\"fuel\":"); str(item.fuel)
        raw(",\"price\":"); let t = Int((item.price * 10).rounded()); int(t / 10); out.append(0x2E); int(t % 10)
        raw(",\"updated_at\":"); str(item.updatedAt); raw(",\"changed_at\":"); str(item.changedAt); raw("}")
    }
    out.append(0x5D)
    return out.count
}
func time(_ f: () -> Int) -> Double {
    var best = Double.infinity
    for _ in 0..<15 { let s = DispatchTime.now().uptimeNanoseconds; var n = 0; for _ in 0..<20 { n &+= f() }; precondition(n > 0); best = min(best, Double(DispatchTime.now().uptimeNanoseconds - s) / 20_000) }
    return best
}
print("bytes codable \(codable()) by hand \(byHand())")
print(String(format: "JSONEncoder %.0f µs, by hand %.0f µs per 500-item page", time(codable), time(byHand)))
