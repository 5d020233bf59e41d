import Foundation

/// How station text and search words are compared: case- and accent-insensitive (`Café` is `cafe`), split into words
/// at anything that is not a letter or digit (`7-Eleven` is `7` and `eleven`).
public enum SearchText {
    public static let maxQueryWords = 8
    public static let maxQueryLength = 100

    public static func words(_ text: String) -> [String] {
        asciiWords(text) ?? foldedWords(text)
    }

    /// `words` for any text, through Foundation's case and diacritic folding.
    static func foldedWords(_ text: String) -> [String] {
        let folded = text.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil).lowercased()
        var words: [String] = []
        var current = String.UnicodeScalarView()
        for scalar in folded.unicodeScalars {
            if CharacterSet.alphanumerics.contains(scalar) {
                current.append(scalar)
            } else if !current.isEmpty {
                words.append(String(current))
                current = String.UnicodeScalarView()
            }
        }
        if !current.isEmpty { words.append(String(current)) }
        return words
    }

    /// `words` for ASCII text without Foundation's folding (nothing to fold but case): what almost every query is.
    /// nil for text with any other character.
    static func asciiWords(_ text: String) -> [String]? {
        var words: [String] = []
        var current: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case 0x30...0x39, 0x61...0x7A: current.append(byte)
            case 0x41...0x5A: current.append(byte | 0x20)
            case 0x80...: return nil
            default:
                if !current.isEmpty {
                    words.append(String(decoding: current, as: UTF8.self))
                    current.removeAll(keepingCapacity: true)
                }
            }
        }
        if !current.isEmpty { words.append(String(decoding: current, as: UTF8.self)) }
        return words
    }
}
