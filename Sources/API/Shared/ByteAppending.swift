/// A byte buffer that fixed ASCII and ready-made fragments are appended to as they are (`JSONWriter`,
/// `HTMLWriter`); each writer adds its own escaping.
protocol ByteAppending {
    var bytes: [UInt8] { get set }
}

extension ByteAppending {
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    mutating func raw(_ other: [UInt8]) { bytes.append(contentsOf: other) }

    mutating func raw(_ other: ArraySlice<UInt8>) { bytes.append(contentsOf: other) }
}
