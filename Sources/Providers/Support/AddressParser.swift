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
    static func parse(_ address: String) -> AddressParts {
        var words = address.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        func bare(_ word: String) -> String { word.filter { $0 != "," }.uppercased() }

        while let last = words.last, ["AU", "AUS"].contains(bare(last)) { words.removeLast() }
        if trailingState(words.map(bare)) == nil, let last = words.last, bare(last) == "AUSTRALIA" { words.removeLast() }
        var postcode: String?
        if let last = words.last, case let code = bare(last), code.count == 4, code.allSatisfy(\.isASCIIDigit) {
            postcode = code
            words.removeLast()
        }
        if trailingState(words.map(bare)) == nil, let last = words.last, bare(last) == "AUSTRALIA" { words.removeLast() }
        var state: AustralianState?
        if let (found, length) = trailingState(words.map(bare)) {
            state = found
            words.removeLast(length)
        }

        let rest = words.joined(separator: " ").trimmingCharacters(in: ", ")
        if let comma = rest.lastIndex(of: ",") {
            let street = rest[..<comma].trimmingCharacters(in: ", ")
            let suburb = rest[rest.index(after: comma)...].trimmingCharacters(in: ", ")
            return AddressParts(street: street, suburb: normalisedSuburb(suburb), state: state, postcode: postcode)
        }
        if !rest.contains(where: \.isNumber) {
            // "Avonside NSW 2628": the whole remainder is the locality.
            return AddressParts(street: rest, suburb: normalisedSuburb(rest), state: state, postcode: postcode)
        }
        // "94 Sturt Hwy BALRANALD": a trailing run of capitals after mixed-case text is the suburb.
        let restWords = rest.split(separator: " ")
        var run = 0
        while run < restWords.count, isShouting(restWords[restWords.count - 1 - run]) { run += 1 }
        if run > 0, run < restWords.count, restWords[..<(restWords.count - run)].contains(where: { $0.contains(where: \.isLowercase) }) {
            let street = restWords[..<(restWords.count - run)].joined(separator: " ")
            let suburb = restWords[(restWords.count - run)...].joined(separator: " ")
            return AddressParts(street: street, suburb: normalisedSuburb(suburb), state: state, postcode: postcode)
        }
        return AddressParts(street: rest, suburb: "", state: state, postcode: postcode)
    }

    /// ACT postcodes (2600–2618 and 2900–2920), used because the NSW feed reports ACT stations as NSW.
    static func isACTPostcode(_ postcode: String?) -> Bool {
        guard let postcode, let value = Int(postcode) else { return false }
        return (2600...2618).contains(value) || (2900...2920).contains(value)
    }

    /// "UMINA BEACH" -> "Umina Beach"; text that already has lower case is left as the provider wrote it.
    static func normalisedSuburb(_ suburb: some StringProtocol) -> String {
        let text = suburb.trimmingWhitespace()
        guard !text.contains(where: \.isLowercase) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
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

    private static func trailingState(_ bareWords: [String]) -> (AustralianState, Int)? {
        if let last = bareWords.last, let state = AustralianState(rawValue: last) { return (state, 1) }
        for (spelling, state) in spelledStates where bareWords.count > spelling.count && Array(bareWords.suffix(spelling.count)) == spelling {
            return (state, spelling.count)
        }
        return nil
    }

    private static func isShouting(_ word: Substring) -> Bool {
        word.count >= 2 && word.allSatisfy { $0.isUppercase || $0 == "-" || $0 == "'" } && word.contains(where: \.isLetter)
    }
}

extension Character {
    var isASCIIDigit: Bool { asciiValue.map { (0x30...0x39).contains($0) } ?? false }
}

private extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        guard let start = firstIndex(where: { !set.contains($0) }) else { return "" }
        let end = lastIndex(where: { !set.contains($0) })!
        return String(self[start...end])
    }
}
