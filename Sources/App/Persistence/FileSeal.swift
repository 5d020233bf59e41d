import Fuel

/// The integrity trailer every data file ends with: `\n#petty-fnv1a64:<16 hex digits>\n`, the 64-bit FNV-1a hash
/// of every byte before it. A text line, so `registry.json` and `history.json` still read as JSON up to it.
/// FNV-1a changes its state bijectively per byte, so any single changed byte (any bit flip) is always detected.
enum FileSeal {
    static let prefix: [UInt8] = Array("\n#petty-fnv1a64:".utf8)
    static let trailerLength = prefix.count + 16 + 1

    enum Unsealed: Equatable {
        case verified([UInt8])
        /// No trailer: a file from before checksums (format 1), to be validated field by field.
        case unsealed([UInt8])
        case mismatch
    }

    static func seal(_ payload: [UInt8]) -> [UInt8] {
        payload + prefix + Array(hex(fnv1a64(payload[...])).utf8) + [0x0A]
    }

    static func open(_ bytes: [UInt8]) -> Unsealed {
        guard bytes.count >= trailerLength else { return .unsealed(bytes) }
        let start = bytes.count - trailerLength
        let hasPrefix = bytes[start..<(start + prefix.count)].elementsEqual(prefix)
        guard hasPrefix else {
            // A trailer whose marker was damaged still has its shape; treat it as damage, not as an old file.
            let shaped = bytes.suffix(18).first == 0x3A && bytes.last == 0x0A
                && bytes.suffix(17).dropLast().allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
            return shaped ? .mismatch : .unsealed(bytes)
        }
        // Compared as text, so only the exact lowercase digits count (a flipped case bit is damage too).
        let digits = bytes[(start + prefix.count)..<(bytes.count - 1)]
        guard bytes.last == 0x0A, digits.elementsEqual(hex(fnv1a64(bytes[..<start])).utf8) else { return .mismatch }
        return .verified(Array(bytes[..<start]))
    }

    static func fnv1a64(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        var hash = FNV1a()
        for byte in bytes { hash.combine(byte) }
        return hash.value
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
