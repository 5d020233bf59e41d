/// Where fixed ASCII and ready-made fragments are appended as they are (`JSONWriter`, `JSONCursor`, `HTMLWriter`);
/// each writer adds its own escaping.
protocol ByteAppending {
    mutating func append(_ byte: UInt8)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension ByteAppending {
    mutating func raw(_ text: StaticString) {
        text.withUTF8Buffer { append($0) }
    }

    mutating func raw(_ other: [UInt8]) { other.withUnsafeBufferPointer { append($0) } }

    mutating func raw(_ other: ArraySlice<UInt8>) { other.withUnsafeBufferPointer { append($0) } }
}
