/// Where a provider's data in a snapshot came from.
public enum DataSource: String, Codable, Sendable, CaseIterable {
    /// Bundled sample payloads, served until live data arrives (development, demos, first boot without keys).
    case sample
    /// Polled from the provider.
    case live
}
