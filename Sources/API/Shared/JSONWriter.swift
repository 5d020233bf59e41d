import Fuel
import HTTP

/// Appends JSON to a byte buffer without Foundation. Hot responses are assembled from pieces written once
/// per snapshot, so this only has to be correct and allocation-light, not clever.
struct JSONWriter {
    var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func raw(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    mutating func string(_ value: String) {
        bytes.append(0x22)
        JSONEscaping.append(value, to: &bytes)
        bytes.append(0x22)
    }

    mutating func key(_ name: StaticString) {
        bytes.append(0x22)
        raw(name)
        raw("\":")
    }

    mutating func int(_ value: Int) {
        bytes.append(contentsOf: String(value).utf8)
    }

    mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    mutating func null() { raw("null") }

    /// 189.9 (always one decimal).
    mutating func price(_ value: PriceTenths) {
        bytes.append(contentsOf: value.description.utf8)
    }

    /// A decimal with at most `places` fraction digits, trailing zeros trimmed (coordinates, distances).
    /// Non-finite values, and values too large to scale into an `Int` exactly, are written as `null`:
    /// validation should stop them earlier, but rendering must never trap on data.
    mutating func decimal(_ value: Double, places: Int) {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let magnitude = (abs(value) * scale).rounded()
        guard magnitude.isFinite, magnitude < 0x1p53 else { return null() }
        let scaled = Int(magnitude)
        let whole = scaled / Int(scale)
        var fraction = scaled % Int(scale)
        if value < 0 && scaled != 0 { bytes.append(0x2D) }
        bytes.append(contentsOf: String(whole).utf8)
        guard fraction != 0 else { return }
        var digits = [UInt8](repeating: 0x30, count: places)
        for i in stride(from: places - 1, through: 0, by: -1) {
            digits[i] = UInt8(0x30 + fraction % 10)
            fraction /= 10
        }
        while digits.last == 0x30 { digits.removeLast() }
        bytes.append(0x2E)
        bytes.append(contentsOf: digits)
    }

}
