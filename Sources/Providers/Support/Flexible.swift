/// A string that may arrive as a JSON string or number (`"972"` or `972`). Integral numbers print without
/// a fraction, so `972` and `972.0` both become `"972"`.
///
/// The decoder API cannot peek at a value's JSON type, so the shape tried second costs a thrown `DecodingError`
/// (about 10–20 µs each: 10,000 NSW rows would add 100+ ms). Strings are tried first unless the decoder's
/// `userInfo[.numbersFirst]` is true, which `JSONPayload` sets when it sniffs a number in the payload.
struct FlexibleString: Decodable, Hashable, Sendable {
    var value: String

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if decoder.userInfo[.numbersFirst] as? Bool == true, let number = try? container.decode(Double.self) {
            value = try Self.text(number, container)
        } else if let string = try? container.decode(String.self) {
            value = string
        } else {
            value = try Self.text(container.decode(Double.self), container)
        }
    }

    private static func text(_ number: Double, _ container: any SingleValueDecodingContainer) throws -> String {
        guard number.isFinite else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "non-finite number where a code was expected")
        }
        return number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : String(number)
    }
}

extension CodingUserInfoKey {
    /// `Bool`: try numbers before strings in `FlexibleString`.
    static let numbersFirst = CodingUserInfoKey(rawValue: "petty.flexible.numbersFirst")!
}

/// A number that may arrive as a JSON number or a numeric string (`225.9` or `"225.9"`).
struct FlexibleDouble: Decodable, Hashable, Sendable {
    var value: Double

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let double = try? container.decode(Double.self) {
            value = double
        } else {
            let string = try container.decode(String.self)
            guard let double = Double(string.trimmingWhitespace()), double.isFinite else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a number: \(string)")
            }
            value = double
        }
    }
}

/// An array element that failed to decode becomes `nil` instead of failing the whole array, so a feed
/// survives one odd row. Callers count the `nil`s.
struct Lossy<Element: Decodable>: Decodable {
    var value: Element?

    init(from decoder: any Decoder) throws {
        value = try? Element(from: decoder)
    }
}

extension Array {
    /// The decoded rows and how many failed.
    func unwrapped<Row>() -> (rows: [Row], failures: Int) where Element == Lossy<Row> {
        var rows: [Row] = []
        rows.reserveCapacity(count)
        for item in self {
            if let value = item.value { rows.append(value) }
        }
        return (rows, count - rows.count)
    }

    /// The decoded rows; each that failed is counted in `tally` as a malformed row.
    func unwrapped<Row>(countingFailuresIn tally: inout AdapterTally) -> [Row] where Element == Lossy<Row> {
        let (rows, failures) = unwrapped()
        tally.record(.malformedRow, failures)
        return rows
    }
}

extension StringProtocol {
    /// Trims whitespace, including the `"\r\n"` grapheme of CRLF text and non-breaking spaces.
    func trimmingWhitespace() -> String {
        guard let start = firstIndex(where: { !$0.isWhitespace }) else { return "" }
        let end = lastIndex(where: { !$0.isWhitespace })!
        return String(self[start...end])
    }
}

/// An integer that may arrive as a JSON number (`14`, `14.0`) or a numeric string (`"14"`).
struct FlexibleInt: Decodable, Hashable, Sendable {
    var value: Int

    init(from decoder: any Decoder) throws {
        let number = try FlexibleDouble(from: decoder).value
        guard number == number.rounded(), abs(number) < 1e15 else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not an integer: \(number)"))
        }
        value = Int(number)
    }
}
