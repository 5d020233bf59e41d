import Foundation
import HTTP
import Synchronization

/// A small etcd on loopback speaking the v3 JSON gateway the way etcd does: base64 keys and values, int64 as
/// strings, every zero field (false, 0, empty) left out, streaming answers wrapped in `result`, and gRPC errors
/// as `{"error", "code", "message"}`. Leases expire only when a test says so; auth is on when a user is set.
/// `watch: true` puts a front on the port that streams `/v3/watch` as etcd's gateway does (FakeEtcd+Watch.swift)
/// and passes every other request to the gateway; without it `/v3/watch` is not there, as behind a gateway without it.
public final class FakeEtcd: Sendable {
    public struct Entry: Sendable {
        public var value: [UInt8]
        public var createRevision: Int64
        public var modRevision: Int64
        public var lease: Int64
    }

    public struct State: Sendable {
        public var revision: Int64 = 1
        public var keys: [String: Entry] = [:]
        public var leases: [Int64: Int64] = [:]
        public var nextLease: Int64 = 0x7000_0000_0000_0001
        public var user: (name: String, password: String)?
        public var tokens: Set<String> = []
        public var authentications = 0
        public var calls: [String] = []
        /// The `cluster_id` every answer's header carries; a rebuilt etcd has another.
        public var clusterID = "1"
        /// Every change of a key after the compacted revision: (revision, key, the entry then or nil when deleted).
        public var history: [(revision: Int64, key: String, entry: Entry?)] = []
        /// The revision etcd compacted its history to (a watch from it or before is refused).
        public var compactedAt: Int64 = 0
        /// The start revision of each watch opened, in order.
        public var watchStarts: [Int64] = []
        /// Bumped by `dropWatches()`: every watch open then ends.
        public var watchDrops = 0

        /// Records the change of `key` at the current revision.
        mutating func changed(_ key: String) { history.append((revision, key, keys[key])) }
    }

    let app: Application
    public private(set) nonisolated(unsafe) var port = 0
    public let state = Mutex(State())
    let watches: Bool
    nonisolated(unsafe) var front: WatchFront?

    public init(user: (String, String)? = nil, watch: Bool = false) {
        watches = watch
        app = Application(environment: .testing, logger: Logger(label: "fake-etcd", level: .critical, sink: .inMemory()))
        app.server.threads = 2
        state.withLock { $0.user = user.map { (name: $0.0, password: $0.1) } }
        routes()
    }

    public func start() throws -> FakeEtcd {
        port = try app.startLive()
        if watches {
            let front = try WatchFront(etcd: self, gateway: port)
            self.front = front
            port = front.port
        }
        return self
    }

    public func stop() {
        front?.stop()
        app.shutdown()
    }

    public var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    /// Client connections open now (kept-alive ones included).
    public var openConnections: Int { app.metrics.snapshot().openConnections }

    // MARK: Test switches

    /// etcd let the lease lapse: its keys go with it.
    public func expire(_ lease: Int64) {
        state.withLock { state in
            state.leases[lease] = nil
            let owned = state.keys.filter { $0.value.lease == lease }.map(\.key)
            if !owned.isEmpty { state.revision += 1 }
            for key in owned {
                state.keys[key] = nil
                state.changed(key)
            }
        }
    }

    /// Simple tokens expire after five idle minutes (or the member restarted).
    public func expireTokens() { state.withLock { $0.tokens = [] } }

    public func put(_ key: String, _ value: String, lease: Int64 = 0) {
        state.withLock { state in
            state.revision += 1
            let create = state.keys[key]?.createRevision ?? state.revision
            state.keys[key] = Entry(value: Array(value.utf8), createRevision: create, modRevision: state.revision, lease: lease)
            state.changed(key)
        }
    }

    public func delete(_ key: String) {
        state.withLock { state in
            state.revision += 1
            state.keys[key] = nil
            state.changed(key)
        }
    }

    /// etcd compacted its history up to the current revision: a watch from there or before is refused.
    public func compact() {
        state.withLock { state in
            state.compactedAt = state.revision
            state.history.removeAll { $0.revision <= state.compactedAt }
        }
    }

    /// Every watch open now ends (its connection closed), as when an etcd member goes away.
    public func dropWatches() { state.withLock { $0.watchDrops += 1 } }

    /// The start revision of each watch opened so far.
    public var watchStarts: [Int64] { state.withLock { $0.watchStarts } }

    public func value(_ key: String) -> String? { state.withLock { $0.keys[key].map { String(decoding: $0.value, as: UTF8.self) } } }
    public func entry(_ key: String) -> Entry? { state.withLock { $0.keys[key] } }
    public var authentications: Int { state.withLock { $0.authentications } }

    /// etcd wiped and started again as a new cluster: no keys, no leases, revisions from 1, another cluster id.
    public func rebuild(clusterID: String) {
        state.withLock { state in
            state.revision = 1
            state.keys = [:]
            state.leases = [:]
            state.tokens = []
            state.history = []
            state.compactedAt = 0
            state.clusterID = clusterID
        }
    }

    /// The calls answered so far, by gateway path (`kv/range`, `lease/keepalive`, ...).
    public var calls: [String] { state.withLock { $0.calls } }

    // MARK: The gateway

    private func routes() {
        post("lease", "grant") { state, body in
            let id = state.nextLease
            state.nextLease += 1
            let ttl = max(2, Self.int(body["TTL"]))
            state.leases[id] = ttl
            return ["header": Self.header(state), "ID": String(id), "TTL": String(ttl)]
        }
        post("lease", "keepalive") { state, body in
            let id = Self.int(body["ID"])
            var result: [String: Any] = ["header": Self.header(state), "ID": String(id)]
            if let ttl = state.leases[id] { result["TTL"] = String(ttl) }  // a lapsed lease: no TTL at all
            return ["result": result]
        }
        post("lease", "revoke") { state, body in
            let id = Self.int(body["ID"])
            guard state.leases.removeValue(forKey: id) != nil else { throw GatewayError(code: 5, message: "etcdserver: requested lease not found") }
            state.revision += 1
            for (key, entry) in state.keys where entry.lease == id {
                state.keys[key] = nil
                state.changed(key)
            }
            return ["header": Self.header(state)]
        }
        post("kv", "range") { state, body in
            let key = Self.text(body["key"])
            let end = body["range_end"].map(Self.text)
            let kvs = state.keys.keys.sorted().filter { end == nil ? $0 == key : ($0 >= key && $0 < end!) }.map { Self.kv($0, state.keys[$0]!) }
            var answer: [String: Any] = ["header": Self.header(state)]
            if !kvs.isEmpty {
                answer["kvs"] = kvs
                answer["count"] = String(kvs.count)
            }
            return answer
        }
        post("kv", "put") { state, body in
            try Self.apply(put: body, to: &state)
            return ["header": Self.header(state)]
        }
        post("kv", "txn") { state, body in
            let compares = (body["compare"] as? [[String: Any]]) ?? []
            let holds = compares.allSatisfy { compare in
                let actual = state.keys[Self.text(compare["key"])]?.createRevision ?? 0
                return compare["target"] as? String == "CREATE" && actual == Self.int(compare["create_revision"])
            }
            if holds {
                state.revision += 1
                for op in (body["success"] as? [[String: Any]]) ?? [] {
                    if let put = op["request_put"] as? [String: Any] { try Self.apply(put: put, to: &state, bump: false) }
                    if let delete = op["request_delete_range"] as? [String: Any] {
                        state.keys[Self.text(delete["key"])] = nil
                        state.changed(Self.text(delete["key"]))
                    }
                }
            }
            var answer: [String: Any] = ["header": Self.header(state)]
            if holds { answer["succeeded"] = true }  // proto3: false is omitted
            return answer
        }
        app.post("v3", "auth", "authenticate") { [self] request in
            let body = (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]) ?? [:]
            return state.withLock { state -> Response in
                state.authentications += 1
                guard let user = state.user else { return Self.error(9, "etcdserver: authentication is not enabled") }
                guard body["name"] as? String == user.name, body["password"] as? String == user.password else {
                    return Self.error(3, "etcdserver: authentication failed, invalid user ID or password")
                }
                let token = "token.\(state.authentications)"
                state.tokens.insert(token)
                return Self.json(["header": Self.header(state), "token": token])
            }
        }
    }

    struct GatewayError: Error {
        var code: Int
        var message: String
    }

    private func post(_ group: String, _ name: String, _ handle: @escaping @Sendable (inout State, [String: Any]) throws -> [String: Any]) {
        app.post("v3", .constant(group), .constant(name)) { [self] request in
            let body = (try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]) ?? [:]
            return state.withLock { state -> Response in
                state.calls.append("\(group)/\(name)")
                if state.user != nil {
                    guard let token = request.headers.first(name: "Authorization"), state.tokens.contains(token) else {
                        return Self.error(16, "etcdserver: invalid auth token", status: .unauthorized)
                    }
                }
                do { return Self.json(try handle(&state, body)) } catch let error as GatewayError {
                    return Self.error(error.code, error.message)
                } catch { return Self.error(2, "\(error)") }
            }
        }
    }

    private static func apply(put: [String: Any], to state: inout State, bump: Bool = true) throws {
        let key = text(put["key"])
        let lease = int(put["lease"])
        if lease != 0, state.leases[lease] == nil { throw GatewayError(code: 5, message: "etcdserver: requested lease not found") }
        if bump { state.revision += 1 }
        let value = (put["value"] as? String).flatMap { Data(base64Encoded: $0) }.map(Array.init) ?? []
        let create = state.keys[key]?.createRevision ?? state.revision
        state.keys[key] = Entry(value: value, createRevision: create, modRevision: state.revision, lease: lease)
        state.changed(key)
    }

    static func kv(_ name: String, _ entry: Entry) -> [String: Any] {
        var kv: [String: Any] = [
            "key": Data(name.utf8).base64EncodedString(), "create_revision": String(entry.createRevision),
            "mod_revision": String(entry.modRevision), "version": "1",
        ]
        if !entry.value.isEmpty { kv["value"] = Data(entry.value).base64EncodedString() }
        if entry.lease != 0 { kv["lease"] = String(entry.lease) }
        return kv
    }

    static func header(_ state: State) -> [String: Any] { ["cluster_id": state.clusterID, "member_id": "2", "revision": String(state.revision), "raft_term": "2"] }
    static func int(_ value: Any?) -> Int64 { (value as? String).flatMap { Int64($0) } ?? 0 }
    static func text(_ value: Any?) -> String {
        (value as? String).flatMap { Data(base64Encoded: $0) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    private static func json(_ object: [String: Any], status: HTTPStatus = .ok) -> Response {
        Response(status: status, contentType: "application/json", body: Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data()))
    }

    private static func error(_ code: Int, _ message: String, status: HTTPStatus = .badRequest) -> Response {
        json(["error": message, "code": code, "message": message], status: status)
    }
}
