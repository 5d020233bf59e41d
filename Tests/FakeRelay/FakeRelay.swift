import Foundation
import HTTP
import Synchronization

/// A gorush stand-in on loopback, built on our own HTTP module: takes `POST /api/push`, records every notification,
/// answers in gorush's format (failed-push logs for tokens it was told are dead), and can fail, stall or refuse.
public final class FakeRelay: Sendable {
    public enum Behaviour: Sendable, Equatable {
        case normal
        /// Answer with this status and no work done.
        case status(Int)
        /// Wait this long on the loop thread before answering (past a client's deadline, say).
        case latency(seconds: Double)
        /// Misbehave for the next `count` requests, then behave normally.
        indirect case times(Int, Behaviour)
        /// Behave normally for the next `count` requests, then as told.
        indirect case after(Int, Behaviour)

        /// How to answer this request, and how to behave from the next one on.
        func next() -> (now: Behaviour, then: Behaviour) {
            switch self {
            case .times(let count, let inner): (inner, count > 1 ? .times(count - 1, inner) : .normal)
            case .after(let count, let inner): count > 0 ? (.normal, .after(count - 1, inner)) : inner.next()
            default: (self, self)
            }
        }
    }

    /// One notification as the relay received it.
    public struct Received: Sendable, Equatable {
        public var token: String
        public var platform: Int
        public var title: String
        public var message: String
        public var topic: String?
        /// `collapse_id` (iOS) or `collapse_key` (Android).
        public var collapseID: String?
        public var data: [String: String]
        public var authorization: String?
    }

    private struct State {
        var behaviour: Behaviour = .normal
        var dead: Set<String> = []
        /// Tokens whose next push fails with this (non-dead) error.
        var failNext: [String: String] = [:]
        var received: [Received] = []
        var requests = 0
        var tokensPerRequest: [Int] = []
    }

    private let app: Application
    private let state = Mutex(State())
    public private(set) nonisolated(unsafe) var port = 0

    public init() {
        app = Application(environment: .testing, logger: Logger(label: "relay", level: .critical, sink: .inMemory()))
        app.server.threads = 2
        app.on(.POST, ["api", "push"]) { [self] request in handle(request) }
    }

    @discardableResult
    public func start() throws -> FakeRelay {
        port = try app.startLive()
        return self
    }

    public func stop() { app.shutdown() }

    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    public func set(_ behaviour: Behaviour) { state.withLock { $0.behaviour = behaviour } }
    /// The relay reports these tokens `Unregistered` (iOS) / `NotRegistered` (Android).
    public func markDead(_ token: String) { _ = state.withLock { $0.dead.insert(token) } }
    /// The next push to `token` fails with `error` (gorush's failed-push entry), the ones after it go through.
    public func failNext(_ token: String, error: String) { state.withLock { $0.failNext[token] = error } }
    public var received: [Received] { state.withLock { $0.received } }
    public var requests: Int { state.withLock { $0.requests } }
    public var tokensPerRequest: [Int] { state.withLock { $0.tokensPerRequest } }

    private func handle(_ request: Request) -> Response {
        let behaviour = state.withLock { state -> Behaviour in
            state.requests += 1
            let (now, then) = state.behaviour.next()
            state.behaviour = then
            return now
        }
        switch behaviour {
        case .status(let code):
            return Response(status: HTTPStatus(code: code), contentType: "application/json", body: Array(#"{"success":"fail"}"#.utf8))
        case .latency(let seconds):
            usleep(UInt32(seconds * 1_000_000))
        case .normal, .times, .after:
            break
        }
        guard let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any],
              let notifications = object["notifications"] as? [[String: Any]] else {
            return Response(status: HTTPStatus(code: 400), contentType: "application/json", body: Array(#"{"message":"bad request"}"#.utf8))
        }
        let authorization = request.headers.first(name: "Authorization")
        var logs: [[String: Any]] = []
        var count = 0
        state.withLock { state in
            var tokens = 0
            for item in notifications {
                let platform = item["platform"] as? Int ?? 0
                let data = (item["data"] as? [String: Any] ?? [:]).mapValues { "\($0)" }
                for token in item["tokens"] as? [String] ?? [] {
                    tokens += 1
                    count += 1
                    if state.dead.contains(token) {
                        logs.append(["type": "failed-push", "platform": platform == 1 ? "ios" : "android", "token": token,
                                     "message": "token is dead", "error": platform == 1 ? "Unregistered" : "NotRegistered"])
                        continue
                    }
                    if let error = state.failNext.removeValue(forKey: token) {
                        logs.append(["type": "failed-push", "platform": platform == 1 ? "ios" : "android", "token": token, "message": error, "error": error])
                        continue
                    }
                    state.received.append(Received(
                        token: token, platform: platform, title: item["title"] as? String ?? "", message: item["message"] as? String ?? "",
                        topic: item["topic"] as? String, collapseID: (item["collapse_id"] ?? item["collapse_key"]) as? String, data: data,
                        authorization: authorization))
                }
            }
            state.tokensPerRequest.append(tokens)
        }
        let answer: [String: Any] = ["counts": count, "logs": logs, "success": "ok"]
        return Response(contentType: "application/json", body: Array((try? JSONSerialization.data(withJSONObject: answer)) ?? Data()))
    }
}
