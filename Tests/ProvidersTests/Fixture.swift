import Foundation
import Testing

/// Recorded provider payloads copied from `/work/shared/fixtures/providers` (see PROVENANCE.md there).
enum Fixture {
    static func data(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"), "missing fixture \(name)")
        return try Data(contentsOf: url)
    }

    /// An instant from an ISO-8601 text with an explicit zone, for readable expectations.
    static func instant(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    static let fetchedAt = instant("2030-01-01T00:00:00Z")
}
