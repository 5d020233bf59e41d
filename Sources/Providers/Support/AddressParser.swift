import Fuel

/// Splits a one-line Australian address into street, suburb, state and postcode, reading from the end:
/// `"307-313 Ocean Beach Road, UMINA BEACH NSW 2257"` (NSW) and `"85 Burnt Creek Drive, Bungalally, 3401"` (VIC).
/// Tolerates trailing `AU`/`AUSTRALIA`, spelled-out states and missing commas. When the suburb cannot be told
/// apart from the street (no comma and no case change), `suburb` is empty and `street` keeps the text.
struct AddressParts: Hashable, Sendable {
    var street: String
    var suburb: String
    var state: AustralianState?
    var postcode: String?
}

enum AddressParser {
    /// Works on UTF-8 bytes: it only splits at ASCII spaces and commas and compares ASCII words, so any non-ASCII
    /// text passes through intact. (Splitting by `Character` costs about 7 µs per address; NSW has 3,289.)
    static func parse(_ address: String) -> AddressParts {
        let bytes = Array(address.utf8)
        var words = Self.words(bytes[...])
        func last(_ offset: Int = 0) -> ArraySlice<UInt8>? { words.count > offset ? words[words.count - 1 - offset] : nil }
        func lastIs(_ offset: Int, _ word: String) -> Bool { last(offset).map { bareEquals($0, word) } ?? false }

        while lastIs(0, "AU") || lastIs(0, "AUS") { words.removeLast() }
        if trailingState(lastIs, count: words.count) == nil, lastIs(0, "AUSTRALIA") { words.removeLast() }
        var postcode: String?
        if let word = last() {
            let digits = word.filter { $0 != comma }
            if digits.count == 4, digits.allSatisfy({ (0x30...0x39).contains($0) }) {
                postcode = String(decoding: digits, as: UTF8.self)
                words.removeLast()
            }
        }
        if trailingState(lastIs, count: words.count) == nil, lastIs(0, "AUSTRALIA") { words.removeLast() }
        var state: AustralianState?
        if let (found, length) = trailingState(lastIs, count: words.count) {
            state = found
            words.removeLast(length)
        }

        // The remaining words, single-spaced, without leading or trailing commas.
        var rest: [UInt8] = []
        rest.reserveCapacity(bytes.count)
        for word in words {
            if !rest.isEmpty { rest.append(space) }
            rest += word
        }
        let trimmed = trim(rest[...])
        func parts(street: ArraySlice<UInt8>, suburb: ArraySlice<UInt8>) -> AddressParts {
            AddressParts(street: string(trim(street)), suburb: normalisedSuburb(string(trim(suburb))), state: state, postcode: postcode)
        }
        let hasDigit: (ArraySlice<UInt8>) -> Bool = { $0.contains(where: { (0x30...0x39).contains($0) }) }

        // "12 Main St, UMINA BEACH": the last comma segment is the suburb unless it has a number in it
        // ("Shop 3, 1190 Miami Street Glenwood"), in which case it is searched like a comma-less address.
        let commaIndex = trimmed.lastIndex(of: comma)
        let tail = commaIndex.map { trimmed[($0 + 1)...] } ?? trimmed
        if let commaIndex, !hasDigit(tail) {
            return parts(street: trimmed[..<commaIndex], suburb: tail)
        }
        let tailWords = Self.words(trim(tail))
        // "Avonside NSW 2628", "Wagga Wagga NSW 2650": a short remainder without a number is the locality alone.
        if commaIndex == nil, !hasDigit(trimmed), tailWords.count <= 3 {
            return parts(street: trimmed, suburb: trimmed)
        }
        // A change of case marks the suburb: "94 Sturt Hwy BALRANALD", "7A SYDNEY RD Mudgee".
        if let lastWord = tailWords.last, let lastCase = wordCase(lastWord) {
            var run = 1
            while run < tailWords.count, wordCase(tailWords[tailWords.count - 1 - run]) == lastCase { run += 1 }
            let head = tailWords[..<(tailWords.count - run)]
            let opposite: WordCase = lastCase == .shouting ? .titled : .shouting
            if head.contains(where: { wordCase($0) == opposite || (opposite == .titled && $0.contains(where: { (0x61...0x7A).contains($0) })) }) {
                let suburbStart = tailWords[head.count].startIndex
                return parts(street: trimmed[..<suburbStart], suburb: trimmed[suburbStart...])
            }
        }
        return AddressParts(street: string(trimmed), suburb: "", state: state, postcode: postcode)
    }

    /// ACT postcodes (2600–2618 and 2900–2920), used because the NSW feed reports ACT stations as NSW.
    static func isACTPostcode(_ postcode: String?) -> Bool {
        guard let postcode, let value = Int(postcode) else { return false }
        return (2600...2618).contains(value) || (2900...2920).contains(value)
    }

    /// "UMINA BEACH" -> "Umina Beach"; text that already has lower case is left as the provider wrote it, except
    /// that "St." and "Mt." lose their full stop: one suburb is one name whichever way a provider abbreviates it.
    static func normalisedSuburb(_ suburb: some StringProtocol) -> String {
        withoutAbbreviationStops(titleCased(suburb.trimmingWhitespace()))
    }

    private static func withoutAbbreviationStops(_ text: String) -> String {
        guard text.contains(".") else { return text }
        return text.split(separator: " ", omittingEmptySubsequences: false).map { word in
            switch word.lowercased() {
            case "st.", "mt.": String(word.dropLast())
            default: String(word)
            }
        }.joined(separator: " ")
    }

    private static func titleCased(_ text: String) -> String {
        var bytes = Array(text.utf8)
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return normalisedUnicodeSuburb(text) }
        guard !bytes.contains(where: { (0x61...0x7A).contains($0) }) else { return text }
        var capitaliseNext = true
        for index in bytes.indices {
            let byte = bytes[index]
            if !capitaliseNext, (0x41...0x5A).contains(byte) { bytes[index] = byte + 0x20 }
            capitaliseNext = byte == 0x20 || byte == 0x2D || byte == 0x27 || byte == 0x28  // space - ' (
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func normalisedUnicodeSuburb(_ text: String) -> String {
        guard !text.contains(where: \.isLowercase) else { return text }
        var result = ""
        var capitaliseNext = true
        for character in text {
            result += capitaliseNext ? character.uppercased() : character.lowercased()
            capitaliseNext = character == " " || character == "-" || character == "'" || character == "("
        }
        return result
    }

    private static let spelledStates: [([String], AustralianState)] = [
        (["NEW", "SOUTH", "WALES"], .NSW), (["AUSTRALIAN", "CAPITAL", "TERRITORY"], .ACT), (["WESTERN", "AUSTRALIA"], .WA),
        (["SOUTH", "AUSTRALIA"], .SA), (["NORTHERN", "TERRITORY"], .NT), (["VICTORIA"], .VIC), (["QUEENSLAND"], .QLD),
        (["TASMANIA"], .TAS),
    ]

    /// The state named by the last words and how many words it took. Needs at least one word before it.
    private static func trailingState(_ lastIs: (Int, String) -> Bool, count: Int) -> (AustralianState, Int)? {
        guard count >= 2 else { return nil }
        for state in AustralianState.allCases where lastIs(0, state.rawValue) { return (state, 1) }
        for (spelling, state) in spelledStates where count > spelling.count {
            if spelling.reversed().enumerated().allSatisfy({ lastIs($0.offset, $0.element) }) { return (state, spelling.count) }
        }
        return nil
    }

    private static let space = UInt8(ascii: " "), comma = UInt8(ascii: ",")

    /// Whether a word equals an upper-case ASCII keyword, ignoring ASCII case and commas ("nsw," == "NSW").
    private static func bareEquals(_ word: ArraySlice<UInt8>, _ keyword: String) -> Bool {
        var expected = keyword.utf8.makeIterator()
        for byte in word where byte != comma {
            guard let want = expected.next() else { return false }
            let upper = (0x61...0x7A).contains(byte) ? byte - 0x20 : byte
            guard upper == want else { return false }
        }
        return expected.next() == nil
    }

    private enum WordCase { case shouting, titled }

    /// "BALRANALD" is shouting, "Mudgee" titled; words with digits or symbols ("7A", "&") are neither.
    private static func wordCase(_ word: ArraySlice<UInt8>) -> WordCase? {
        let isUpper: (UInt8) -> Bool = { (0x41...0x5A).contains($0) }
        let isLower: (UInt8) -> Bool = { (0x61...0x7A).contains($0) }
        guard word.count >= 2, let first = word.first, isUpper(first),
              word.allSatisfy({ isUpper($0) || isLower($0) || $0 == 0x2D || $0 == 0x27 }) else { return nil }
        return word.contains(where: isLower) ? .titled : .shouting
    }

    /// The words of a slice, split at ASCII spaces and tabs (indices shared with the input).
    private static func words(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        bytes.split(whereSeparator: { $0 == space || $0 == 0x09 })
    }

    private static func trim(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let isPadding: (UInt8) -> Bool = { $0 == space || $0 == comma || $0 == 0x09 }
        guard let first = bytes.firstIndex(where: { !isPadding($0) }) else { return bytes[bytes.startIndex..<bytes.startIndex] }
        let last = bytes.lastIndex(where: { !isPadding($0) })!
        return bytes[first...last]
    }

    private static func string(_ bytes: ArraySlice<UInt8>) -> String { String(decoding: bytes, as: UTF8.self) }
}
