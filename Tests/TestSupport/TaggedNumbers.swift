import Foundation

/// Rewrites the number inside every `<tag>…</tag>` of a recorded XML feed (dates moved, prices raised, stations
/// shifted), so fakes serve a recording changed in one respect.
public enum TaggedNumbers {
    public static func rewriting(_ text: String, tag: String, _ transform: (Double) -> String) -> String {
        let regex = try! NSRegularExpression(pattern: "<\(tag)>(-?[0-9.]+)</\(tag)>")
        var out = ""
        var last = text.startIndex
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let whole = Range(match.range, in: text)!
            let value = Double(text[Range(match.range(at: 1), in: text)!])!
            out += text[last..<whole.lowerBound] + "<\(tag)>\(transform(value))</\(tag)>"
            last = whole.upperBound
        }
        return out + text[last...]
    }
}
