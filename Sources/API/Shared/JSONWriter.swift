import Fuel
import HTTP

/// Appends JSON to a byte buffer without Foundation. Hot responses are assembled from pieces written once
/// per snapshot, so this only has to be correct and allocation-light, not clever.
struct JSONWriter: ByteAppending {
    var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

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
        if value < 0 { bytes.append(0x2D) }
        digits(value.magnitude)
    }

    /// The decimal digits of `value`, written straight into the buffer (no String per number on the hot paths).
    private mutating func digits(_ value: UInt) {
        var divisor: UInt = 1
        while divisor <= value / 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(0x30 + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    mutating func null() { raw("null") }

    /// 189.9 (always one decimal).
    mutating func price(_ value: PriceTenths) {
        if value.tenths < 0 { bytes.append(0x2D) }
        let magnitude = UInt(value.tenths.magnitude)
        digits(magnitude / 10)
        bytes.append(0x2E)
        bytes.append(0x30 + UInt8(magnitude % 10))
    }

    /// A decimal with at most `places` fraction digits, trailing zeros trimmed (coordinates, distances).
    /// Non-finite values, and values too large to scale into an `Int` exactly, are written as `null`:
    /// validation should stop them earlier, but rendering must never trap on data.
    mutating func decimal(_ value: Double, places: Int) {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let magnitude = (abs(value) * Double(scale)).rounded()
        guard magnitude.isFinite, magnitude < 0x1p53 else { return null() }
        let scaled = Int(magnitude)
        if value < 0 && scaled != 0 { bytes.append(0x2D) }
        // Digit by digit into the buffer: numbers are on every hot path, and a String per number is two allocations.
        digits(UInt(scaled / scale))
        var fraction = scaled % scale
        guard fraction != 0 else { return }
        bytes.append(0x2E)
        var place = scale / 10
        // Trailing zeros trimmed: the loop ends with the last non-zero digit.
        while fraction != 0 {
            bytes.append(0x30 + UInt8(fraction / place))
            fraction %= place
            place /= 10
        }
    }

}
