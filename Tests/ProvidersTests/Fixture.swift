import Foundation
import Testing

/// Recorded provider payloads (see PROVENANCE.md in the shared fixtures): the test-only ones copied into
/// `Fixtures/`, and those the server bundles as sample data read from `Sources/Providers/SampleData/` where they
/// live, so no payload is kept twice.
enum Fixture {
    static func data(_ name: String) throws -> Data {
        if let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") {
            return try Data(contentsOf: url)
        }
        let url = try #require(sampleData(named: name), "missing fixture \(name) (neither in Fixtures/ nor in the bundled sample data)")
        return try Data(contentsOf: url)
    }

    /// `Sources/Providers/SampleData/<provider>/<name>` of this checkout.
    static func sampleData(named name: String) -> URL? {
        var root = URL(fileURLWithPath: #filePath)
        while root.pathComponents.count > 1, !FileManager.default.fileExists(atPath: root.appendingPathComponent("Package.swift").path) {
            root.deleteLastPathComponent()
        }
        let folder = root.appendingPathComponent("Sources/Providers/SampleData")
        let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.first { $0.lastPathComponent == name }
    }

    /// An instant from an ISO-8601 text with an explicit zone, for readable expectations.
    static func instant(_ text: String) -> Date {
        ISO8601DateFormatter().date(from: text)!
    }

    static let fetchedAt = instant("2030-01-01T00:00:00Z")
}
