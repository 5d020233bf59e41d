extension JSONWriter {
    /// The bytes of `decimal(value, places: 2)` without its two heap allocations (a `String` and a digit array): a
    /// near list writes three per station on every request (`distance_km`, `fill_cost`, `saving`), which took a
    /// fifth of its time.
    mutating func hundredths(_ value: Double) {
        let magnitude = (abs(value) * 100).rounded()
        guard magnitude.isFinite, magnitude < 0x1p53 else { return null() }
        let hundredths = Int(magnitude)
        if value < 0 && hundredths != 0 { bytes.append(0x2D) }
        let whole = hundredths / 100
        var divisor = 1
        while divisor <= whole / 10 { divisor *= 10 }
        while divisor > 0 {
            bytes.append(0x30 + UInt8(whole / divisor % 10))
            divisor /= 10
        }
        let fraction = hundredths % 100
        guard fraction != 0 else { return }
        bytes.append(0x2E)
        bytes.append(0x30 + UInt8(fraction / 10))
        // Trailing zeros trimmed, as `decimal` does.
        if fraction % 10 != 0 { bytes.append(0x30 + UInt8(fraction % 10)) }
    }
}
