import Foundation

/// Everything we serve at one moment: stations with their prices, and each provider's status.
/// Immutable; every change produces a new snapshot with a higher `version`.
/// Lookup by id is O(1) through a dense id -> slot table (ids are small and dense), or a dictionary when the ids
/// are too sparse for one (outside data with a huge id must not size an array).
public struct Snapshot: Sendable, Hashable {
    /// Increases by one with every data change (merge, rollover). Good for ETags.
    public let version: UInt64
    /// The instant of the last change, nil for an empty initial snapshot. Good for `Last-Modified`.
    public let changedAt: Date?
    /// Stations with prices, sorted by id.
    public let entries: [StationEntry]
    /// One status per provider heard from, sorted by provider.
    public let statuses: [ProviderStatus]
    /// `slots[id]` is the index in `entries` of station `id`, or -1.
    private let slots: [Int32]
    /// Used instead of `slots` (then empty) when the ids are sparse.
    private let sparseSlots: [Int: Int32]
    /// `judge` and `averages`, built on first use and shared by every copy (`Snapshot+Derived.swift`).
    let derived = SnapshotDerivations()

    public static let empty = Snapshot(version: 0, changedAt: nil, entries: [], statuses: [])

    /// Builds a snapshot; entries are sorted by id and statuses by provider (on duplicates the last wins).
    public init(version: UInt64, changedAt: Date?, entries: [StationEntry], statuses: [ProviderStatus]) {
        let sorted: [StationEntry]
        if zip(entries, entries.dropFirst()).allSatisfy({ $0.id < $1.id }) {
            // Already in id order without duplicates (the usual case): keep the same storage, so derived data
            // can tell a status-only change from a data change.
            sorted = entries
        } else {
            // Sort positions, not entries (a merge appends its provider's stations after the others'): each entry is
            // then copied once. Within one id the later position sorts last and replaces the earlier.
            let ids = entries.map(\.id)
            let order = ids.indices.sorted { ids[$0] != ids[$1] ? ids[$0] < ids[$1] : $0 < $1 }
            var unique: [StationEntry] = []
            unique.reserveCapacity(entries.count)
            var lastID: StationID?
            for position in order {
                if lastID == ids[position] {
                    unique[unique.count - 1] = entries[position]
                } else {
                    unique.append(entries[position])
                }
                lastID = ids[position]
            }
            sorted = unique
        }
        var byProvider: [ProviderID: ProviderStatus] = [:]
        for status in statuses { byProvider[status.provider] = status }
        self.version = version
        self.changedAt = changedAt
        self.entries = sorted
        self.statuses = byProvider.values.sorted { $0.provider < $1.provider }
        (self.slots, self.sparseSlots) = Self.slotTables(for: sorted)
    }

    private static func slotTables(for entries: [StationEntry]) -> ([Int32], [Int: Int32]) {
        let highest = entries.last.map { max(0, $0.id.rawValue) } ?? 0
        guard highest <= 4 * entries.count + 1024 else {
            var sparse: [Int: Int32] = [:]
            sparse.reserveCapacity(entries.count)
            for (slot, entry) in entries.enumerated() { sparse[entry.id.rawValue] = Int32(slot) }
            return ([], sparse)
        }
        var slots = [Int32](repeating: -1, count: highest + 1)
        for (slot, entry) in entries.enumerated() where entry.id.rawValue >= 0 {
            slots[entry.id.rawValue] = Int32(slot)
        }
        return (slots, [:])
    }

    /// The index in `entries` of station `id`, O(1).
    public func slot(of id: StationID) -> Int? {
        let raw = id.rawValue
        if !sparseSlots.isEmpty { return sparseSlots[raw].map(Int.init) }
        guard raw >= 0, raw < slots.count else { return nil }
        let slot = slots[raw]
        return slot < 0 ? nil : Int(slot)
    }

    public subscript(id: StationID) -> StationEntry? {
        slot(of: id).map { entries[$0] }
    }

    public func station(_ id: StationID) -> Station? { self[id]?.station }

    public func status(of provider: ProviderID) -> ProviderStatus? {
        for status in statuses where status.provider == provider { return status }
        return nil
    }

    /// The instant `provider`'s data describes.
    public func asOf(_ provider: ProviderID) -> Date? { status(of: provider)?.asOf }

    public var stationCount: Int { entries.count }
    public var priceCount: Int { entries.reduce(0) { $0 + $1.prices.count } }

}

extension Snapshot: Codable {
    private enum CodingKeys: String, CodingKey { case version, changedAt, statuses, stations }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let entries = try container.decode([StationEntry].self, forKey: .stations)
        guard Set(entries.map(\.id)).count == entries.count, entries.allSatisfy({ $0.id.rawValue > 0 }) else {
            throw DecodingError.dataCorruptedError(
                forKey: .stations, in: container, debugDescription: "Duplicate or invalid station ids")
        }
        self.init(
            version: try container.decode(UInt64.self, forKey: .version),
            changedAt: try container.decodeIfPresent(Date.self, forKey: .changedAt),
            entries: entries,
            statuses: try container.decode([ProviderStatus].self, forKey: .statuses))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(version, forKey: .version)
        try container.encodeIfPresent(changedAt, forKey: .changedAt)
        try container.encode(statuses, forKey: .statuses)
        try container.encode(entries, forKey: .stations)
    }
}

extension Snapshot {
    /// Compares the content; the lookup table and `derived` come from it.
    public static func == (a: Snapshot, b: Snapshot) -> Bool {
        a.version == b.version && a.changedAt == b.changedAt && a.statuses == b.statuses && a.entries == b.entries
    }

    /// Hashes the content; the lookup table is derived from it.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(version)
        hasher.combine(changedAt)
        hasher.combine(statuses)
        hasher.combine(entries)
    }
}
