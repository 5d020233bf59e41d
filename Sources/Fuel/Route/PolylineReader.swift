/// Where an encoded polyline's bytes come from: the text as is, or as a URL query carries it (`%XX` escapes resolved
/// as they are read). `PolylineReader` reads the numbers from either the same way.
protocol PolylineBytes {
    var bytes: UnsafeBufferPointer<UInt8> { get }
    /// Where the next byte starts (what errors name).
    var position: Int { get }
    /// The next byte, moving past it; 0 (never polyline text) where there is no byte to give (a broken escape).
    mutating func next() -> UInt8
}

extension PolylineBytes {
    var isAtEnd: Bool { position >= bytes.count }
}

/// The text as it is.
struct PlainPolylineBytes: PolylineBytes {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    @inline(__always)
    mutating func next() -> UInt8 {
        defer { position += 1 }
        return bytes[position]
    }
}

/// The text as a URL query carries it: `%XX` is the byte XX; a `%` without two hex digits is no byte.
struct PercentEncodedPolylineBytes: PolylineBytes {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    @inline(__always)
    mutating func next() -> UInt8 {
        let byte = bytes[position]
        guard byte == UInt8(ascii: "%") else {
            position += 1
            return byte
        }
        guard position + 2 < bytes.count, let high = Self.hexValue(bytes[position + 1]), let low = Self.hexValue(bytes[position + 2])
        else { return 0 }
        position += 3
        return high << 4 | low
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        default: nil
        }
    }
}

/// Reads the points of an encoded polyline (see `Polyline`) from any `PolylineBytes`.
enum PolylineReader {
    /// Every point of `source`, stopping with `.tooManyPoints` as soon as there are more than `maximumPoints`;
    /// `byteCount` (the source's length) sizes the result: every point takes at least two bytes.
    static func points<Source: PolylineBytes>(
        of source: Source, byteCount: Int, maximumPoints: Int
    ) throws(Polyline.DecodingError) -> [Coordinate] {
        var source = source
        guard !source.isAtEnd else { throw .empty }
        var points: [Coordinate] = []
        points.reserveCapacity(min(byteCount / 2, maximumPoints) + 1)
        var latitude = 0, longitude = 0
        while !source.isAtEnd {
            latitude += try number(from: &source)
            guard !source.isAtEnd else { throw .truncated }
            longitude += try number(from: &source)
            // Judged on the integers (the same test as `Coordinate.isValid`: each division is exact at the limits),
            // so the check need not wait for the divisions.
            guard abs(latitude) <= Self.maximumLatitude, abs(longitude) <= Self.maximumLongitude else {
                throw .outOfRange(point: points.count + 1)
            }
            let point = Coordinate(latitude: Double(latitude) / Polyline.scale, longitude: Double(longitude) / Polyline.scale)
            guard points.count < maximumPoints else { throw .tooManyPoints(limit: maximumPoints) }
            points.append(point)
        }
        return points
    }

    /// ±90° and ±180° in the format's 1e-5 degrees (constants, not stored globals read through a once-check per point).
    private static var maximumLatitude: Int { 9_000_000 }
    private static var maximumLongitude: Int { 18_000_000 }

    /// One zig-zag number: 5-bit chunks offset by 63, a set 0x20 bit meaning another chunk follows.
    @inline(__always)
    private static func number<Source: PolylineBytes>(from source: inout Source) throws(Polyline.DecodingError) -> Int {
        var result = 0, shift = 0
        while true {
            guard !source.isAtEnd else { throw .truncated }
            let position = source.position
            let chunk = Int(source.next()) &- 63
            // Past 30 bits no real coordinate delta fits; refuse before the shift overflows.
            guard chunk >= 0 && chunk < 64 && shift <= 30 else { throw .invalidCharacter(position: position) }
            result |= (chunk & 0x1F) << shift
            shift += 5
            if chunk < 0x20 { return result & 1 == 1 ? ~(result >> 1) : result >> 1 }
        }
    }
}
