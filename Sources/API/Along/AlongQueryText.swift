import Foundation
import Fuel
import HTTP

/// An along request's raw query read without unescaping its route: the one `polyline=` pair decoded straight
/// from its `%XX`-escaped bytes (`Polyline.decode(percentEncoded:)`), the other parameters parsed as usual. The
/// route is kilobytes; unescaping it into a string, then trimming a copy of that, costs more than decoding it.
///
/// nil when the query is anything but plain: no `polyline=` pair, more than one (also an escaped name such as
/// `poly%6Cine=`), text that is not cleanly encoded. `QueryReader` then reads the whole query as it reads every
/// other endpoint's, so what a client sees (every error included) is the same either way.
struct AlongQueryText {
    /// The polyline's points, not yet measured (`RoutePath` validates them after the parameter names are checked).
    let points: [Coordinate]
    /// Every parameter but `polyline`, in order.
    let others: URLQuery

    init?(rawQuery: String?) {
        guard var raw = rawQuery else { return nil }
        guard let split = raw.withUTF8({ Self.split($0) }) else { return nil }
        let others = URLQuery(split.others)
        guard !others.contains(Self.name) else { return nil }
        self.points = split.points
        self.others = others
    }

    static let name = "polyline"
    private static let prefix = Array("\(name)=".utf8)

    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) -> (points: [Coordinate], others: String)? {
        var found: Range<Int>?
        var pairStart = 0
        while pairStart < bytes.count {
            let pairEnd = end(of: bytes, from: pairStart)
            if hasPrefix(bytes, at: pairStart, before: pairEnd) {
                guard found == nil else { return nil }
                found = pairStart..<pairEnd
            }
            pairStart = pairEnd + 1
        }
        guard let pair = found else { return nil }
        let value = UnsafeBufferPointer(rebasing: bytes[(pair.lowerBound + prefix.count)..<pair.upperBound])
        guard let points = Polyline.decode(percentEncoded: value, maximumPoints: AlongQuery.maximumPoints) else { return nil }
        // The pairs either side joined by `&` (an empty pair is skipped when parsed).
        var others = String(decoding: UnsafeBufferPointer(rebasing: bytes[..<pair.lowerBound]), as: UTF8.self)
        if pair.upperBound < bytes.count {
            others += String(decoding: UnsafeBufferPointer(rebasing: bytes[pair.upperBound...]), as: UTF8.self)
        }
        return (points, others)
    }

    /// The index of the `&` ending the pair that starts at `start`, or the end.
    private static func end(of bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, let hit = memchr(base + start, Int32(UInt8(ascii: "&")), bytes.count - start) else {
            return bytes.count
        }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, at start: Int, before end: Int) -> Bool {
        guard end - start >= prefix.count else { return false }
        for (offset, byte) in prefix.enumerated() where bytes[start + offset] != byte { return false }
        return true
    }
}
