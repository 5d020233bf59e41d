import Fuel

/// The wire contract of `/internal/v1/dataset`: where it is, its two media types and its validator. The body's
/// bytes are App's (`DatasetPayload`): they reuse the persistence formats.
package enum DatasetWire {
    package static let path = "internal/v1/dataset"
    package static let contentType = "application/vnd.petty.dataset"
    /// What followers ask for (`Accept`): the same body ending in a checksum line over every byte before it.
    package static let sealedContentType = "application/vnd.petty.dataset+sealed"

    /// One validator per published dataset, shared by the leader and every follower that copied it.
    package static func etag(_ snapshot: Snapshot) -> String {
        "\(etagPrefix(version: snapshot.version))\(Int((snapshot.changedAt ?? .distantPast).timeIntervalSince1970))\""
    }

    /// Whether `etag` names a body of dataset `version`.
    package static func etag(_ etag: String, isOf version: UInt64) -> Bool {
        etag.hasPrefix(etagPrefix(version: version))
    }

    private static func etagPrefix(version: UInt64) -> String { "\"dataset-\(version)-" }
}

/// How a dataset becomes the body `/internal/v1/dataset` sends, plain or sealed (App's `ReplicationPayload`).
package protocol DatasetPayload {
    static func encode(_ dataset: Dataset) throws -> [UInt8]
    static func encodeSealed(_ dataset: Dataset) throws -> [UInt8]
}
