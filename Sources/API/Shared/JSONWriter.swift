import Fuel
import HTTP

/// Appends JSON to a byte buffer without Foundation. Hot responses are assembled from pieces written once
/// per snapshot, so this only has to be correct and allocation-light, not clever.
struct JSONWriter: JSONOutput {
    var bytes: [UInt8] = []

    init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append(_ other: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: other) }

    mutating func string(_ value: String) {
        bytes.append(0x22)
        JSONEscaping.append(value, to: &bytes)
        bytes.append(0x22)
    }
}

/// JSON's numbers and literals, for any buffer: `JSONWriter`'s array, or `JSONCursor`'s storage sized in advance.
protocol JSONOutput: ByteAppending {}

extension JSONOutput {
    mutating func int(_ value: Int) {
        if value < 0 { append(0x2D) }
        digits(value.magnitude)
    }

    /// The decimal digits of `value`, written straight into the buffer (no String per number on the hot paths).
    /// Last digit first into a scratch buffer: dividing by the constant 10 is a multiplication, where dividing by a
    /// running power of ten is a real division per digit.
    private mutating func digits(_ value: UInt) {
        if value < 10 { return append(0x30 + UInt8(value)) }
        if value < 100 {
            append(0x30 + UInt8(value / 10))
            return append(0x30 + UInt8(value % 10))
        }
        var scratch = DigitScratch()
        scratch.push(value, count: nil)
        scratch.append(to: &self)
    }

    mutating func bool(_ value: Bool) {
        value ? raw("true") : raw("false")
    }

    mutating func null() { raw("null") }

    /// 189.9 (always one decimal).
    mutating func price(_ value: PriceTenths) {
        if value.tenths < 0 { append(0x2D) }
        let magnitude = UInt(value.tenths.magnitude)
        digits(magnitude / 10)
        append(0x2E)
        append(0x30 + UInt8(magnitude % 10))
    }

    /// A decimal with at most `places` fraction digits, trailing zeros trimmed (coordinates, distances).
    /// Non-finite values, and values too large to scale into an `Int` exactly, are written as `null`:
    /// validation should stop them earlier, but rendering must never trap on data.
    mutating func decimal(_ value: Double, places: Int) {
        if places == 2 { return hundredths(value) }
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        decimal(value, scale: scale, places: places)
    }

    /// `decimal(_:places: 2)`, the usual one (distances, dollars): constant divisions, and the two fraction digits
    /// appended as they are.
    private mutating func hundredths(_ value: Double) {
        let product = abs(value) * 100
        guard product.isFinite, product < 0x1p53 else { return null() }
        if value < 0 && product >= 0.5 { append(0x2D) }
        hundredths(magnitude: Self.roundedHalfAway(product))
    }

    /// `decimal(Double(cents) / 100, places: 2)`, to the byte, from the whole number of hundredths (money in
    /// cents) without going through a `Double`.
    mutating func hundredths(ofInteger scaled: Int) {
        // Beyond this the Double route could round differently; no price or fill cost comes near it.
        guard scaled.magnitude < 1 << 50 else { return decimal(Double(scaled) / 100, places: 2) }
        if scaled < 0 { append(0x2D) }
        hundredths(magnitude: Int(scaled.magnitude))
    }

    /// `value.rounded()` (half away from zero) for a non-negative `value` below 2^53, without the libm call: the
    /// fraction `value - trunc(value)` is exact there.
    @inline(__always)
    private static func roundedHalfAway(_ value: Double) -> Int {
        let whole = Int(value)
        return whole + (value - Double(whole) >= 0.5 ? 1 : 0)
    }

    private mutating func hundredths(magnitude scaled: Int) {
        let whole = scaled / 100
        digits(UInt(whole))
        let fraction = scaled - whole * 100
        guard fraction != 0 else { return }
        append(0x2E)
        append(0x30 + UInt8(fraction / 10))
        if fraction % 10 != 0 { append(0x30 + UInt8(fraction % 10)) }
    }

    /// `decimal(_:places:)` with `scale` = 10^`places`.
    private mutating func decimal(_ value: Double, scale: Int, places: Int) {
        let magnitude = (abs(value) * Double(scale)).rounded()
        guard magnitude.isFinite, magnitude < 0x1p53 else { return null() }
        let scaled = Int(magnitude)
        if value < 0 && scaled != 0 { append(0x2D) }
        // Digit by digit into the buffer: numbers are on every hot path, and a String per number is two allocations.
        let whole = scaled / scale
        digits(UInt(whole))
        var fraction = UInt(scaled - whole * scale)
        guard fraction != 0 else { return }
        append(0x2E)
        // Trailing zeros trimmed, then the rest of the `places` digits (leading zeros kept).
        var places = places
        while fraction % 10 == 0 {
            fraction /= 10
            places -= 1
        }
        var scratch = DigitScratch()
        scratch.push(fraction, count: places)
        scratch.append(to: &self)
    }

}

/// Up to 20 decimal digits, written last first.
private struct DigitScratch {
    private var storage: (UInt64, UInt64, UInt64) = (0, 0, 0)
    private var start = 24

    /// The digits of `value`, padded with leading zeros to `count` when given.
    mutating func push(_ value: UInt, count: Int?) {
        var rest = value
        let end = start - (count ?? 0)
        withUnsafeMutableBytes(of: &storage) { buffer in
            repeat {
                start -= 1
                buffer[start] = 0x30 + UInt8(truncatingIfNeeded: rest % 10)
                rest /= 10
            } while rest != 0
            while start > max(end, 0) {
                start -= 1
                buffer[start] = 0x30
            }
        }
    }

    func append(to output: inout some ByteAppending) {
        var storage = storage
        let start = start
        withUnsafeBytes(of: &storage) { buffer in
            let digits = buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + start
            output.append(UnsafeBufferPointer(start: digits, count: buffer.count - start))
        }
    }
}
