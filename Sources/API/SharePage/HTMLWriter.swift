import Fuel

/// Appends HTML to a byte buffer. `text` escapes everything a provider could send (`& < > " '`), so the
/// same call is safe in element content and in quoted attribute values; C0 control characters are dropped.
struct HTMLWriter: ByteAppending {
    var bytes: [UInt8] = []

    init(capacity: Int = 1024) { bytes.reserveCapacity(capacity) }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append(_ other: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: other) }

    /// Text we produced ourselves that is known to need no escaping (numbers, formatted times).
    mutating func trusted(_ text: String) { bytes.append(contentsOf: text.utf8) }

    /// Escaped text, for element content and attribute values alike.
    mutating func text(_ value: String) {
        for byte in value.utf8 {
            switch byte {
            case 0x26: raw("&amp;")
            case 0x3C: raw("&lt;")
            case 0x3E: raw("&gt;")
            case 0x22: raw("&quot;")
            case 0x27: raw("&#39;")
            case 0x09, 0x0A, 0x0D: bytes.append(0x20)
            case 0..<0x20, 0x7F: continue
            default: bytes.append(byte)
            }
        }
    }

    mutating func int(_ value: Int) { bytes.append(contentsOf: String(value).utf8) }

    /// 189.9
    mutating func price(_ value: PriceTenths) { bytes.append(contentsOf: value.description.utf8) }

    /// A coordinate with at most six decimals (about 0.1 m).
    mutating func coordinate(_ value: Double) {
        var json = JSONWriter(capacity: 16)
        json.decimal(value, places: 6)
        bytes.append(contentsOf: json.bytes)
    }
}
