import Foundation

/// `/<fleet>/dataset`: where the leader's current dataset is and how to check it.
public struct DatasetPointer: Codable, Equatable, Sendable {
    public var version: UInt64
    public var epoch: Int64
    /// The fleet generation it was published in (nil: 0, from a member before generations were published).
    public var generation: Int64?
    /// The leader's `/internal/v1/dataset` URL.
    public var url: String
    /// Of the whole replication body, so a follower checks what it downloaded before decoding it.
    public var checksum: String
    public var asOf: String?
    /// The publisher's wall clock when it published (Unix milliseconds): what a follower measures the skew between
    /// the two clocks by, and judges "ahead of the clock" against, never its own clock alone.
    public var publishedMillis: Int64?
    /// SHA-256 of the body (hex) and the HMAC-SHA-256 over the fleet, token and that digest under
    /// `PETTY_FLEET_SECRET` (hex), when the publisher has the secret; never the secret itself.
    public var sha256: String?
    public var signature: String?
    /// Whether the publisher held live data (not only the bundled samples): the fleet has held live data since.
    public var live: Bool?

    public init(
        version: UInt64, epoch: Int64, generation: Int64? = nil, url: String, checksum: String, asOf: String?, publishedMillis: Int64? = nil
    ) {
        self.version = version
        self.epoch = epoch
        self.generation = generation
        self.url = url
        self.checksum = checksum
        self.asOf = asOf
        self.publishedMillis = publishedMillis
    }

    enum CodingKeys: String, CodingKey {
        case version, epoch, generation, url, checksum
        case asOf = "as_of"
        case publishedMillis = "published_ms"
        case sha256, signature, live
    }

    /// What orders it among the fleet's publications: (generation, epoch); then its version within one token.
    public var token: FleetFenceToken { FleetFenceToken(generation: generation ?? 0, revision: epoch) }

    public var publishedInstant: Date? { publishedMillis.map { Date(timeIntervalSince1970: Double($0) / 1000) } }
}

/// `/<fleet>/members/<name>`, under the member's lease (gone when the member is).
public struct MemberRecord: Codable, Equatable, Sendable {
    public var url: String
    public var version: UInt64
    public var epoch: Int64
    public var role: String
    /// Holds live data (nil from members before this was recorded).
    public var live: Bool?
    /// The highest station id this member knows was issued: a new leader adopts the fleet-wide maximum, so ids
    /// are never reused even when etcd's `/ids` went with a rebuilt etcd.
    public var ids: Int64?
    /// The fleet generation this member is in.
    public var generation: Int64?
}

/// `/<fleet>/leader`: who leads (the key's create_revision is the epoch).
public struct LeaderRecord: Codable, Equatable, Sendable {
    public var name: String
    public var url: String
    /// The generation it leads in: the token of everything it writes is (generation, the key's create_revision).
    public var generation: Int64?
}

enum FleetJSON {
    static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array((try? encoder.encode(value)) ?? Data())
    }

    static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) -> T? {
        try? JSONDecoder().decode(type, from: Data(bytes))
    }
}

/// One read of the whole fleet (`range /<fleet>/`).
struct FleetView {
    var leader: (record: LeaderRecord?, epoch: Int64, lease: Int64)?
    var pointer: DatasetPointer?
    var members: [String: MemberRecord] = [:]
    var ids: Int64 = 0

    /// The fleet-wide id mark: `/ids`, or any registered member's own if higher (`/ids` goes with a rebuilt etcd).
    var idMark: Int64 { max(ids, members.values.compactMap(\.ids).max() ?? 0) }

    /// The highest generation the fleet's records name (0 when none does).
    var generation: Int64 {
        max(pointer?.generation ?? 0, leader?.record?.generation ?? 0, members.values.compactMap(\.generation).max() ?? 0)
    }

    init(_ kvs: [EtcdKeyValue], keys: FleetKeys) {
        for kv in kvs {
            switch kv.key {
            case keys.leader: leader = (FleetJSON.decode(LeaderRecord.self, kv.value), kv.createRevision, kv.lease)
            case keys.dataset: pointer = FleetJSON.decode(DatasetPointer.self, kv.value)
            case keys.ids: ids = Int64(String(decoding: kv.value, as: UTF8.self)) ?? 0
            default:
                if kv.key.hasPrefix(keys.membersPrefix), let record = FleetJSON.decode(MemberRecord.self, kv.value) {
                    members[String(kv.key.dropFirst(keys.membersPrefix.count))] = record
                }
            }
        }
    }
}
