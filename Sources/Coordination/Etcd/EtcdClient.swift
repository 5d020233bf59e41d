import Foundation
import Synchronization
import Clocks
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// etcd v3 through its JSON gateway (`POST /v3/...`) over `URLSession`: https endpoints get TLS for free.
/// Calls go to the endpoint that answered last and fail over to the next one on a transport error; with
/// credentials, a token from `/v3/auth/authenticate` rides in the `Authorization` header and is renewed once when
/// etcd calls it invalid (simple tokens expire after five idle minutes and are per member). Over http, lease
/// keep-alives go as messages of one held-open stream (`LeaseKeepAliveStream`), a request each only while the
/// stream fails.
public final class EtcdClient: Sendable {
    public let endpoints: [URL]
    let credentials: EtcdCredentials?
    let timeout: TimeInterval
    private let session: URLSession
    let plain = PlainHTTP()
    /// nil: every keep-alive is a request of its own.
    private let keepAliveStream: LeaseKeepAliveStream?
    private let state = Mutex(State())

    private struct State {
        var preferred = 0
        /// nil: not authenticated yet; "": etcd said auth is not enabled.
        var token: String?
        /// The `cluster_id` of the last answer's header: a new value is an etcd rebuilt from nothing.
        var clusterID: String?
        /// After a failed keep-alive stream, keep-alives are requests until then (monotonic seconds).
        var streamAgainAt: Double = 0
    }

    /// How long keep-alives are requests after the stream failed (an endpoint that went away, a gateway that
    /// does not stream).
    static let streamRetryDelay: Double = 15
    /// etcd checks a password with bcrypt, one at a time: a fleet's members authenticating at once on a busy host
    /// take seconds, and at a call's short deadline each would time out and ask again, for ever.
    static let authenticateTimeout: Double = 4

    /// The cluster id etcd last answered with (nil before any answer).
    public var clusterID: String? { state.withLock { $0.clusterID } }

    /// Calls start at `firstEndpoint`, by default a random one: a fleet's members spread over the endpoints
    /// instead of all loading the first in the list. `streamsKeepAlives` false: every keep-alive is a request.
    public init(
        endpoints: [URL], credentials: EtcdCredentials? = nil, timeout: TimeInterval = 2, firstEndpoint: Int? = nil, streamsKeepAlives: Bool = true
    ) {
        precondition(!endpoints.isEmpty, "at least one etcd endpoint")
        self.endpoints = endpoints
        state.withLock { $0.preferred = (firstEndpoint ?? Int.random(in: 0..<endpoints.count)) % endpoints.count }
        self.credentials = credentials
        keepAliveStream = streamsKeepAlives ? LeaseKeepAliveStream() : nil
        self.timeout = max(1, timeout.rounded(.up))
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = self.timeout
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    /// The endpoint calls go to first (the last one that answered).
    public var currentEndpoint: URL { endpoints[state.withLock { $0.preferred }] }

    /// The token calls carry now (nil: none yet or auth is off).
    var heldToken: String? { state.withLock { $0.token.flatMap { $0.isEmpty ? nil : $0 } } }

    // MARK: - Leases

    public func grant(ttl: Int64) async throws(EtcdError) -> EtcdLease {
        let answer = try await call("v3/lease/grant", ["TTL": ProtoJSON.int64String(ttl)])
        let lease = EtcdLease(id: ProtoJSON.int64(answer["ID"]), ttl: ProtoJSON.int64(answer["TTL"]))
        if let error = answer["error"] as? String, !error.isEmpty { throw .server(code: 0, message: error) }
        guard lease.id != 0, lease.ttl > 0 else { throw .malformed("a lease grant without an ID or TTL") }
        return lease
    }

    /// One keep-alive; the TTL left, or 0 when the lease no longer exists (etcd then omits `TTL`).
    public func keepAlive(_ lease: Int64) async throws(EtcdError) -> Int64 {
        if let ttl = await streamedKeepAlive(lease) { return ttl }
        let answer = try await call("v3/lease/keepalive", ["ID": ProtoJSON.int64String(lease)])
        return ProtoJSON.int64((answer["result"] as? ProtoJSON.Object ?? answer)["TTL"])
    }

    /// The keep-alive sent on the stream to the current endpoint; nil when it could not be (https, no token yet,
    /// the stream failed now or lately): the caller sends it as a request.
    private func streamedKeepAlive(_ lease: Int64) async -> Int64? {
        guard let keepAliveStream else { return nil }
        let endpoint = currentEndpoint
        let (token, againAt) = state.withLock { ($0.token, $0.streamAgainAt) }
        guard endpoint.scheme?.lowercased() == "http", MonotonicClock.seconds() >= againAt, credentials == nil || token != nil else { return nil }
        do {
            let answer = try await keepAliveStream.keepAlive(lease, on: endpoint, token: token.flatMap { $0.isEmpty ? nil : $0 }, timeout: timeout)
            if let cluster = answer.clusterID, !cluster.isEmpty { state.withLock { $0.clusterID = cluster } }
            return answer.ttl
        } catch {
            state.withLock { $0.streamAgainAt = MonotonicClock.seconds() + Self.streamRetryDelay }
            return nil
        }
    }

    public func revoke(_ lease: Int64) async throws(EtcdError) {
        _ = try await call("v3/lease/revoke", ["ID": ProtoJSON.int64String(lease)])
    }

    // MARK: - Keys

    /// Every key under `prefix`, in key order.
    public func range(prefix: String) async throws(EtcdError) -> [EtcdKeyValue] {
        let answer = try await call("v3/kv/range", [
            "key": ProtoJSON.base64(prefix), "range_end": ProtoJSON.base64(ProtoJSON.prefixEnd(prefix)),
        ])
        return try Self.keyValues(answer["kvs"])
    }

    /// Every key from `start` (included) to `end` (excluded), in key order.
    public func range(from start: String, to end: String) async throws(EtcdError) -> [EtcdKeyValue] {
        try await read(from: start, to: end).kvs
    }

    /// Every key from `start` (included) to `end` (excluded), in key order, and the revision they were read at.
    public func read(from start: String, to end: String) async throws(EtcdError) -> (kvs: [EtcdKeyValue], revision: Int64) {
        try await read(key: ProtoJSON.base64(start), end: ProtoJSON.base64(end))
    }

    /// Every key under `prefix`, in key order, and the revision they were read at.
    public func read(prefix: String) async throws(EtcdError) -> (kvs: [EtcdKeyValue], revision: Int64) {
        try await read(key: ProtoJSON.base64(prefix), end: ProtoJSON.base64(ProtoJSON.prefixEnd(prefix)))
    }

    private func read(key: String, end: String) async throws(EtcdError) -> (kvs: [EtcdKeyValue], revision: Int64) {
        let answer = try await call("v3/kv/range", ["key": key, "range_end": end])
        return (try Self.keyValues(answer["kvs"]), ProtoJSON.int64((answer["header"] as? ProtoJSON.Object)?["revision"]))
    }

    /// The names of at most `limit` keys under `prefix` (no values), in key order.
    public func keys(prefix: String, limit: Int = 10_000) async throws(EtcdError) -> [String] {
        let answer = try await call("v3/kv/range", [
            "key": ProtoJSON.base64(prefix), "range_end": ProtoJSON.base64(ProtoJSON.prefixEnd(prefix)),
            "keys_only": true, "limit": String(limit),
        ])
        return try Self.keyValues(answer["kvs"]).map(\.key)
    }

    public func put(_ put: EtcdPut) async throws(EtcdError) {
        _ = try await call("v3/kv/put", Self.putBody(put))
    }

    /// Applies `puts` only if every comparison holds (`succeeded`, omitted when false), at the answer's revision.
    /// `deletes`: keys deleted in the same transaction, after the puts.
    public func txn(when compares: [EtcdCreateRevisionEquals], then puts: [EtcdPut], deletes: [String] = []) async throws(EtcdError) -> EtcdTxnResult {
        let body: ProtoJSON.Object = [
            "compare": compares.map { compare -> ProtoJSON.Object in
                ["key": ProtoJSON.base64(compare.key), "target": "CREATE", "result": "EQUAL",
                 "create_revision": ProtoJSON.int64String(compare.revision)]
            },
            "success": puts.map { ["request_put": Self.putBody($0)] }
                + deletes.map { ["request_delete_range": ["key": ProtoJSON.base64($0)] as ProtoJSON.Object] },
        ]
        let answer = try await call("v3/kv/txn", body)
        let header = answer["header"] as? ProtoJSON.Object ?? [:]
        return EtcdTxnResult(succeeded: ProtoJSON.bool(answer["succeeded"]), revision: ProtoJSON.int64(header["revision"]))
    }

    static func putBody(_ put: EtcdPut) -> ProtoJSON.Object {
        var body: ProtoJSON.Object = ["key": ProtoJSON.base64(put.key), "value": ProtoJSON.base64(put.value)]
        if put.lease != 0 { body["lease"] = ProtoJSON.int64String(put.lease) }
        return body
    }

    static func keyValues(_ value: Any?) throws(EtcdError) -> [EtcdKeyValue] {
        var result: [EtcdKeyValue] = []
        for kv in ProtoJSON.objects(value) {
            let key: [UInt8], bytes: [UInt8]
            do {
                key = try ProtoJSON.bytes(kv["key"])
                bytes = try ProtoJSON.bytes(kv["value"])
            } catch { throw .malformed("invalid base64 in a key or value") }
            result.append(EtcdKeyValue(
                key: String(decoding: key, as: UTF8.self), value: bytes, createRevision: ProtoJSON.int64(kv["create_revision"]),
                modRevision: ProtoJSON.int64(kv["mod_revision"]), lease: ProtoJSON.int64(kv["lease"])))
        }
        return result
    }

    // MARK: - Transport

    /// Tries each endpoint once, starting with the preferred one; an endpoint that answers becomes preferred.
    func call(_ path: String, _ body: ProtoJSON.Object) async throws(EtcdError) -> ProtoJSON.Object {
        let first = state.withLock { $0.preferred }
        var failures: [String] = []
        for offset in 0..<endpoints.count {
            let index = (first + offset) % endpoints.count
            do {
                let answer = try await authenticatedCall(endpoints[index], path, body)
                let cluster = ((answer["header"] as? ProtoJSON.Object) ?? ((answer["result"] as? ProtoJSON.Object)?["header"] as? ProtoJSON.Object))?["cluster_id"]
                state.withLock { state in
                    state.preferred = index
                    if let cluster = cluster.map({ "\($0)" }), !cluster.isEmpty { state.clusterID = cluster }
                }
                return answer
            } catch {
                guard case .unreachable(let why) = error else { throw error }
                failures.append("\(endpoints[index].absoluteString) \(why)")
            }
        }
        // A token of a cluster that is gone (etcd rebuilt) is not refused: etcd waits for its raft index to catch up
        // with the token's until the call times out. Timing out everywhere, the next call authenticates afresh.
        if credentials != nil { state.withLock { $0.token = nil } }
        throw .unreachable(failures.joined(separator: "; "))
    }

    private func authenticatedCall(_ endpoint: URL, _ path: String, _ body: ProtoJSON.Object) async throws(EtcdError) -> ProtoJSON.Object {
        guard credentials != nil else { return try await send(endpoint, path, body, token: nil) }
        let held = state.withLock { $0.token }
        let token: String
        if let held { token = held } else { token = try await authenticate(endpoint) }
        do {
            return try await send(endpoint, path, body, token: token)
        } catch where error.isExpiredToken {
            return try await send(endpoint, path, body, token: try await authenticate(endpoint))
        }
    }

    private func authenticate(_ endpoint: URL) async throws(EtcdError) -> String {
        guard let credentials else { return "" }
        let token: String
        do throws(EtcdError) {
            let answer = try await send(
                endpoint, "v3/auth/authenticate", ["name": credentials.username, "password": credentials.password], token: nil,
                timeout: max(timeout, Self.authenticateTimeout))
            guard let issued = answer["token"] as? String, !issued.isEmpty else { throw EtcdError.malformed("no token in the authenticate answer") }
            token = issued
        } catch {
            switch error {
            case .server(_, let message) where message.contains("not enabled"): token = ""
            case .server(_, let message): throw .authentication(message)
            default: throw error
            }
        }
        state.withLock { $0.token = token }
        return token
    }

    private func send(
        _ endpoint: URL, _ path: String, _ body: ProtoJSON.Object, token: String?, timeout: Double? = nil
    ) async throws(EtcdError) -> ProtoJSON.Object {
        let timeout = timeout ?? self.timeout
        var request = URLRequest(url: endpoint.appendingPathComponent(path), cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let token, !token.isEmpty { request.setValue(token, forHTTPHeaderField: "Authorization") }
        if endpoint.scheme?.lowercased() == "http" {
            let encoded: Data
            do { encoded = try ProtoJSON.encode(body) } catch { throw .malformed("request not encodable") }
            var headers: [(String, String)] = []
            if let token, !token.isEmpty { headers.append(("Authorization", token)) }
            let answer = try await plain.post(endpoint.appendingPathComponent(path), headers: headers, body: encoded, timeout: timeout)
            return try EtcdAnswer.read(answer.body, status: answer.status)
        }
        let data: Data, response: URLResponse
        do {
            request.httpBody = try ProtoJSON.encode(body)
            (data, response) = try await session.data(for: request)
        } catch let error as URLError {
            throw .unreachable(Self.describe(error))
        } catch is CancellationError {
            throw .unreachable("cancelled")
        } catch {
            throw .unreachable("\(error)")
        }
        return try EtcdAnswer.read(data, status: (response as? HTTPURLResponse)?.statusCode ?? 0)
    }

    private static func describe(_ error: URLError) -> String {
        switch error.code {
        case .cannotConnectToHost: "connection refused"
        case .timedOut: "timed out"
        case .cannotFindHost, .dnsLookupFailed: "cannot resolve the host"
        case .networkConnectionLost: "connection lost"
        case .cancelled: "cancelled"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate: "TLS failed"
        default: "URL error \(error.code.rawValue)"
        }
    }
}

/// `PETTY_ETCD_USERNAME` / `PETTY_ETCD_PASSWORD`.
public struct EtcdCredentials: Sendable, Equatable {
    public var username: String
    public var password: String

    public init(username: String, password: String) {
        self.username = username
        self.password = password
    }
}
