/// Maps provider station keys to our station ids. A new key gets the next integer (1, 2, 3, ...);
/// an id, once given, is never reassigned or reused, even after its station leaves every feed.
/// Persisted beside the snapshot so ids survive restarts (`/stations/1` is a shared link).
///
/// A station that reappears under another key (WA's sample `site-<id>` becoming a live `rss:<lat>,<lng>`, or an
/// RSS coordinate edit moving its key) keeps its id: the new key is recorded as an alias of the id
/// (`Snapshot.resolvingIdentities`), and merges file its records under the station's own key.
public struct StationRegistry: Hashable, Sendable {
    private var ids: [StationKey: StationID]
    /// Other keys of stations that already have an id: the same site seen through another source or after an edit.
    public private(set) var aliases: [StationKey: StationID] = [:]
    /// The highest id ever assigned; the next key gets `lastAssigned + 1`.
    public private(set) var lastAssigned: Int

    public init() {
        ids = [:]
        lastAssigned = 0
    }

    public var count: Int { ids.count }

    public func id(for key: StationKey) -> StationID? { ids[key] }

    /// The id `key` is an alias of, if it is one.
    public func aliasedID(for key: StationKey) -> StationID? { aliases[key] }

    /// Records `key` as another key of the station `id` (already assigned). False, changing nothing, when the key
    /// already has an id or alias, or `id` was never assigned.
    @discardableResult
    public mutating func alias(_ key: StationKey, to id: StationID) -> Bool {
        guard ids[key] == nil, aliases[key] == nil, id.rawValue > 0, id.rawValue <= lastAssigned else { return false }
        aliases[key] = id
        return true
    }

    /// The key that owns `id` (not an alias), by a scan: for the rare merge that rewrites an alias.
    public func key(owning id: StationID) -> StationKey? {
        ids.first { $0.value == id }?.key
    }

    /// The key's id, assigning the next one if the key is new.
    public mutating func assign(_ key: StationKey) -> StationID {
        if let id = ids[key] { return id }
        lastAssigned += 1
        let id = StationID(lastAssigned)
        ids[key] = id
        return id
    }

    /// All assignments, ordered by id.
    public var assignments: [(key: StationKey, id: StationID)] {
        ids.map { (key: $0.key, id: $0.value) }.sorted { $0.id < $1.id }
    }
}

extension StationRegistry: Codable {
    /// `aliases` was added later: a file without it loads with none (and older readers ignore it).
    private enum CodingKeys: String, CodingKey { case lastAssigned, stations, aliases }

    private struct Assignment: Codable {
        var id: StationID
        var provider: ProviderID
        var sourceID: String
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let assignments = try container.decode([Assignment].self, forKey: .stations)
        var ids: [StationKey: StationID] = [:]
        var seen = Set<StationID>()
        var highest = try container.decode(Int.self, forKey: .lastAssigned)
        for assignment in assignments {
            let key = StationKey(provider: assignment.provider, sourceID: assignment.sourceID)
            guard assignment.id.rawValue > 0, seen.insert(assignment.id).inserted, ids[key] == nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .stations, in: container,
                    debugDescription: "Duplicate or invalid assignment \(key) -> \(assignment.id)")
            }
            ids[key] = assignment.id
            highest = max(highest, assignment.id.rawValue)
        }
        self.ids = ids
        self.lastAssigned = highest
        var aliases: [StationKey: StationID] = [:]
        for alias in try container.decodeIfPresent([Assignment].self, forKey: .aliases) ?? [] {
            let key = StationKey(provider: alias.provider, sourceID: alias.sourceID)
            guard seen.contains(alias.id), ids[key] == nil, aliases[key] == nil else {
                throw DecodingError.dataCorruptedError(
                    forKey: .aliases, in: container, debugDescription: "Invalid alias \(key) -> \(alias.id)")
            }
            aliases[key] = alias.id
        }
        self.aliases = aliases
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(lastAssigned, forKey: .lastAssigned)
        let list = assignments.map { Assignment(id: $0.id, provider: $0.key.provider, sourceID: $0.key.sourceID) }
        try container.encode(list, forKey: .stations)
        if !aliases.isEmpty {
            let aliasList = aliases.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
                .map { Assignment(id: $0.value, provider: $0.key.provider, sourceID: $0.key.sourceID) }
            try container.encode(aliasList, forKey: .aliases)
        }
    }
}

extension StationRegistry {
    /// Records an id that is already in use elsewhere (a loaded snapshot) for a key the registry lacks.
    /// Returns false, changing nothing, when the key is known or the id belongs to another key.
    @discardableResult
    public mutating func adopt(_ key: StationKey, as id: StationID) -> Bool {
        guard ids[key] == nil, id.rawValue > 0, !ids.values.contains(id) else { return false }
        ids[key] = id
        lastAssigned = max(lastAssigned, id.rawValue)
        return true
    }

    /// The registry with every station of `snapshot` it lacks adopted under the snapshot's id,
    /// so a snapshot restored without its registry keeps its ids.
    public func reconciled(with snapshot: Snapshot) -> StationRegistry {
        var registry = self
        var used = Set(ids.values)
        for entry in snapshot.entries where registry.ids[entry.station.key] == nil && !used.contains(entry.id) {
            registry.ids[entry.station.key] = entry.id
            registry.lastAssigned = max(registry.lastAssigned, entry.id.rawValue)
            used.insert(entry.id)
        }
        return registry
    }
}

extension StationRegistry {
    /// The registry made to agree with a snapshot loaded beside it (the two files may come from different saves):
    /// every snapshot station's key maps to the snapshot's id, assignments that contradict that are dropped, and
    /// `lastAssigned` covers every id either file has used, so no id is ever handed out twice.
    /// `dropped` counts the contradicting assignments.
    public func repaired(against snapshot: Snapshot) -> (registry: StationRegistry, dropped: Int) {
        var repaired = StationRegistry()
        var owner: [StationID: StationKey] = [:]
        for entry in snapshot.entries {
            repaired.ids[entry.station.key] = entry.id
            owner[entry.id] = entry.station.key
        }
        var dropped = 0
        for (key, id) in ids where repaired.ids[key] != id {
            if repaired.ids[key] == nil, owner[id] == nil {
                repaired.ids[key] = id
                owner[id] = key
            } else {
                dropped += 1
            }
        }
        let highest = max(lastAssigned, snapshot.entries.lazy.map(\.id.rawValue).max() ?? 0)
        repaired.lastAssigned = highest
        let owned = Set(repaired.ids.values)
        for (key, id) in aliases where repaired.ids[key] == nil && owned.contains(id) { repaired.aliases[key] = id }
        return (repaired, dropped)
    }
}

extension StationRegistry {
    /// Makes sure no id up to `mark` is ever handed out again: the next new key gets at least `mark + 1`.
    /// For a high-water mark kept elsewhere (another data file, etcd) that may know of ids this registry lost.
    /// Never lowers the mark; returns whether it rose.
    @discardableResult
    public mutating func raiseMark(to mark: Int) -> Bool {
        guard mark > lastAssigned else { return false }
        lastAssigned = mark
        return true
    }
}
