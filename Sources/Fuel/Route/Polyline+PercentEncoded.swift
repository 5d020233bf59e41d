extension Polyline {
    /// `decode` of the text as a URL query carries it, `%XX` escapes unresolved: clients escape many of the
    /// format's characters (`?`, `@`, `[`, `\`, `]`, `^`, `` ` ``, `{`, `|`, `}`), so the plain reading would first
    /// copy kilobytes into an unescaped string; this reads the escapes in the same pass as the numbers.
    ///
    /// nil for anything else (`+` or any escape of a byte outside '?'...'~', a lone `%`, text `decode` refuses,
    /// more than `maximumPoints` points): the caller then unescapes the text as usual and `decode` names the fault.
    public static func decode(percentEncoded bytes: UnsafeBufferPointer<UInt8>, maximumPoints: Int) -> [Coordinate]? {
        guard !bytes.isEmpty else { return nil }
        var points: [Coordinate] = []
        // Every point takes at least two bytes.
        points.reserveCapacity(min(bytes.count / 2, maximumPoints) + 1)
        var index = 0, latitude = 0, longitude = 0
        // The same reading as `decode`'s, one escaped or plain byte at a time; nil where `decode` would throw.
        func number() -> Int? {
            var result = 0, shift = 0
            while index < bytes.count {
                var byte = bytes[index]
                if byte == UInt8(ascii: "%") {
                    guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
                    else { return nil }
                    byte = high << 4 | low
                    index += 3
                } else {
                    index += 1
                }
                let chunk = Int(byte) &- 63
                guard chunk >= 0 && chunk < 64 && shift <= 30 else { return nil }
                result |= (chunk & 0x1F) << shift
                shift += 5
                if chunk < 0x20 { return result & 1 == 1 ? ~(result >> 1) : result >> 1 }
            }
            return nil
        }
        while index < bytes.count {
            guard let dLat = number(), index < bytes.count, let dLng = number() else { return nil }
            latitude += dLat
            longitude += dLng
            let point = Coordinate(latitude: Double(latitude) / scale, longitude: Double(longitude) / scale)
            guard point.isValid, points.count < maximumPoints else { return nil }
            points.append(point)
        }
        return points
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
