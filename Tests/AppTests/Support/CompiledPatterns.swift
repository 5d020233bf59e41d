import Foundation
import Synchronization

/// Regular expressions compiled once per pattern text for the contract validator: it meets the same few patterns
/// and formats on every item of a page (5,000 on the largest documented one), and compiling a pattern costs far
/// more than matching it.
enum CompiledPatterns {
    /// Matching with an `NSRegularExpression` from several threads is safe; it is immutable once made.
    private final class Compiled: @unchecked Sendable {
        let regex: NSRegularExpression
        init(_ regex: NSRegularExpression) { self.regex = regex }
    }

    private static let compiled = Mutex<[String: Compiled]>([:])

    /// nil when `pattern` is not a valid regular expression.
    static func regex(_ pattern: String) -> NSRegularExpression? {
        if let known = compiled.withLock({ $0[pattern] }) { return known.regex }
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return nil }
        compiled.withLock { $0[pattern] = Compiled(regex) }
        return regex
    }
}
