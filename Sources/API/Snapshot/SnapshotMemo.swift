import Foundation
import Fuel
import HTTP
import Synchronization

/// What the API renders from a snapshot once and then serves many times: whole responses per request, the advice
/// board, summary parts and share pages.
///
/// One rule decides how long an entry lives: while its snapshot is the current one and its `Freshness` holds for
/// the clock; when the memo is full (entries or bytes), the oldest entry goes first. A request still holding an
/// older snapshot gets a value built for it, which is neither kept nor allowed to evict the newer ones.
package final class SnapshotMemo: Sendable {
    /// What an entry is (`kind`: a route or a derived value) and for which parameters (`detail`).
    /// Hashed once, where it is made: the table's lock, which every memoized response of every event loop takes,
    /// is then held for an integer probe and not for hashing a request target.
    struct Key: Hashable, Sendable {
        let kind: String
        let detail: String
        private let hashed: Int

        init(kind: String, detail: String) {
            self.kind = kind
            self.detail = detail
            var hasher = Hasher()
            hasher.combine(kind)
            hasher.combine(detail)
            hashed = hasher.finalize()
        }

        func hash(into hasher: inout Hasher) { hasher.combine(hashed) }

        static func == (a: Key, b: Key) -> Bool { a.hashed == b.hashed && a.kind == b.kind && a.detail == b.detail }
    }

    /// How long an entry answers for the clock, within its snapshot.
    enum Freshness: Sendable {
        /// A function of the snapshot alone.
        case snapshot
        /// Judged by the clock (open now, a day's window, a cursor against the feed's horizon): kept for the
        /// wall-clock second it was built in, finer than any time rule the API has.
        case second
        /// Judged by the clock with a known next boundary: kept while `holds(wall)`.
        case whilst(@Sendable (Date) -> Bool)
    }

    struct Limits: Sendable {
        var entries = 4_096
        var bytes = 16 << 20
    }

    // @unchecked: the values stored are Sendable; `Any` only erases their types.
    fileprivate struct Entry: @unchecked Sendable {
        let value: Any
        let builtAt: Date
        let freshness: Freshness
        let bytes: Int
        let serial: Int

        /// Never served to a clock earlier than its build (a clock set back), nor past its freshness.
        func holds(at wall: Date) -> Bool {
            guard wall >= builtAt else { return false }
            switch freshness {
            case .snapshot: return true
            case .second: return wall.timeIntervalSince1970.rounded(.down) == builtAt.timeIntervalSince1970.rounded(.down)
            case .whilst(let holds): return holds(wall)
            }
        }
    }

    fileprivate struct Table {
        var version: UInt64 = 0
        var entries: [Key: Entry] = [:]
        /// Insertion order, oldest first from `head`; a key whose entry has another serial was replaced since.
        var order: [(key: Key, serial: Int)] = []
        var head = 0
        var bytes = 0
        var serial = 0
    }

    private let table = Mutex(Table())
    let limits: Limits

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The value for `key` in `view`'s snapshot at `wall`, built by `build` when none holds. `freshness` and
    /// `bytes` (what keeping it costs) are read from the value built.
    func value<Value: Sendable>(
        _ key: Key, in view: PettyView, wall: Date, freshness: (Value) -> Freshness, bytes: (Value) -> Int,
        build: () throws -> Value
    ) rethrows -> Value {
        // Judged and cast outside the lock: a `whilst` rule is the caller's code.
        let kept = table.withLock { table -> Entry? in table.version == view.version ? table.entries[key] : nil }
        if let kept, kept.holds(at: wall), let value = kept.value as? Value { return value }
        let value = try build()
        keep(value, for: key, in: view, wall: wall, freshness: freshness(value), bytes: bytes(value))
        return value
    }

    /// Keeps `value` for `key` in `view`'s snapshot, built at `wall` and costing `bytes`: what `value(...)` does
    /// with what it built, for a caller that learns only while building whether a value may be kept.
    func keep<Value: Sendable>(_ value: Value, for key: Key, in view: PettyView, wall: Date, freshness: Freshness, bytes cost: Int) {
        table.withLock { table in
            if view.version > table.version { table = Table(version: view.version) }
            guard view.version == table.version, cost <= limits.bytes else { return }
            let entry = Entry(value: value, builtAt: wall, freshness: freshness, bytes: cost, serial: table.serial)
            table.store(key, entry, limits: limits)
        }
    }

    /// The value kept for `key` in `view`'s snapshot when it holds at `wall`; nil otherwise (nothing is built).
    func kept<Value: Sendable>(_ key: Key, in view: PettyView, wall: Date) -> Value? {
        let kept = table.withLock { table -> Entry? in table.version == view.version ? table.entries[key] : nil }
        guard let kept, kept.holds(at: wall) else { return nil }
        return kept.value as? Value
    }

    /// The response for `request` in `view`, rendered by `render` at most once per snapshot, parameters and
    /// freshness, and kept with its gzip made once (`CompressibleBody`). Errors are not kept.
    func response(
        _ request: Request, variant: String = "", in view: PettyView, wall: Date, freshness: Freshness,
        render: () throws -> Response
    ) rethrows -> Response {
        let key = Key(kind: "response" + variant, detail: request.head.target)
        // The key keeps the target: a URL of kilobytes costs its length, whatever its body's.
        let targetBytes = request.head.target.utf8.count
        return try value(key, in: view, wall: wall, freshness: { _ in freshness }, bytes: { $0.body.count * 3 / 2 + 512 + targetBytes }) {
            var response = try render()
            if response.compressible == nil {
                response.compressible = CompressibleBody(response.body, etag: response.headers.first(name: "ETag"))
            }
            return response
        }
    }

    /// How many entries are kept, and the slots of their insertion order (for tests).
    var count: Int { table.withLock { $0.entries.count } }
    var orderSlots: Int { table.withLock { $0.order.count - $0.head } }
}

extension SnapshotMemo.Table {
    fileprivate mutating func store(_ key: SnapshotMemo.Key, _ entry: SnapshotMemo.Entry, limits: SnapshotMemo.Limits) {
        if let replaced = entries.updateValue(entry, forKey: key) { bytes -= replaced.bytes }
        bytes += entry.bytes
        order.append((key, entry.serial))
        serial += 1
        while entries.count > limits.entries || bytes > limits.bytes, head < order.count {
            let oldest = order[head]
            head += 1
            if let evicted = entries[oldest.key], evicted.serial == oldest.serial {
                entries[oldest.key] = nil
                bytes -= evicted.bytes
            }
        }
        // Replaced entries leave stale order slots behind: rebuild the order from the live entries when they pile up.
        if order.count - head > 2 * entries.count + 1_024 {
            order = entries.map { ($0.key, $0.value.serial) }.sorted { $0.serial < $1.serial }
            head = 0
        } else if head > 1_024 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
