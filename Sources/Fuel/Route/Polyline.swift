/// Google's encoded polyline format at precision 5 (1e-5 degrees): each coordinate a zig-zag signed delta from
/// the previous point, in 5-bit chunks offset by 63 ('?'), a set 0x20 bit meaning another chunk follows.
public enum Polyline {
    public enum DecodingError: Error, Hashable, Sendable, CustomStringConvertible {
        case empty
        /// A byte outside '?'...'~' at this position (0-based).
        case invalidCharacter(position: Int)
        /// The text ends inside a number, or after a latitude without its longitude.
        case truncated
        case tooManyPoints(limit: Int)
        /// A point outside -90...90 / -180...180, 1-based.
        case outOfRange(point: Int)

        public var description: String {
            switch self {
            case .empty: "is empty"
            case .invalidCharacter(let position): "has a character that is not encoded-polyline text at position \(position)"
            case .truncated: "ends in the middle of a point (cut short when copied?)"
            case .tooManyPoints(let limit): "has more than \(limit) points; simplify the route"
            case .outOfRange(let point): "point \(point) is not a valid latitude,longitude"
            }
        }
    }

    static let scale = 1e5

    /// The points of `text`, stopping with `.tooManyPoints` as soon as it holds more than `maximumPoints`.
    public static func decode(_ text: String, maximumPoints: Int = .max) throws(DecodingError) -> [Coordinate] {
        var text = text
        // Read in place: a route's text is kilobytes, copied once already by the query's decoding.
        return try text.withUTF8 { bytes in Result { () throws(DecodingError) in try decode(bytes, maximumPoints: maximumPoints) } }.get()
    }

    /// `decode` of UTF-8 bytes; positions in errors count from `bytes`' start.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, maximumPoints: Int = .max) throws(DecodingError) -> [Coordinate] {
        try PolylineReader.points(of: PlainPolylineBytes(bytes), byteCount: bytes.count, maximumPoints: maximumPoints)
    }

    /// The encoded text of `points` (rounded to 1e-5 degrees): what tests and the benchmark send.
    public static func encode(_ points: [Coordinate]) -> String {
        var bytes: [UInt8] = []
        var previousLat = 0, previousLng = 0
        func append(_ value: Int) {
            var rest = value < 0 ? ~(value << 1) : value << 1
            while rest >= 0x20 {
                bytes.append(UInt8((0x20 | (rest & 0x1F)) + 63))
                rest >>= 5
            }
            bytes.append(UInt8(rest + 63))
        }
        for point in points {
            let lat = Int((point.latitude * scale).rounded())
            let lng = Int((point.longitude * scale).rounded())
            append(lat - previousLat)
            append(lng - previousLng)
            previousLat = lat
            previousLng = lng
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
