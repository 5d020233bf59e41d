import Foundation

/// How station text and search words are compared: case- and accent-insensitive (`Café` is `cafe`), split into words
/// at anything that is not a letter or digit (`7-Eleven` is `7` and `eleven`).
public enum SearchText {
    public static let maxQueryWords = 8
    public static let maxQueryLength = 100

    public static func words(_ text: String) -> [String] {
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
}
