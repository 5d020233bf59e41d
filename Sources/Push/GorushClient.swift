import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends pushes through a gorush relay: at most `batchSize` tokens a request, retrying a request with capped
/// backoff after a 5xx, a timeout or a refused connection. Tokens never reach a log line whole.
public struct GorushClient: Sendable {
    /// One HTTP exchange: the status and body, or a thrown transport error.
    public typealias Transport = @Sendable (URLRequest) async throws -> (Int, Data)
    public typealias Sleep = @Sendable (Double) async throws -> Void

    public struct Outcome: Sendable, Equatable {
        public enum Delivery: Sendable, Equatable {
            case accepted
            /// The relay reported the token dead (`Unregistered`, `BadDeviceToken`, `NotRegistered`).
            case dead(String)
            /// The relay took the request but not this push (gorush's error): worth another try later.
            case failed(String)
            /// Never taken: its request, or one before it, did not reach the relay (`relayFailure` says why).
            case notSent
        }

        /// One per message, in the order given.
        public var deliveries: [Delivery] = []
        /// The request the relay did not take after its retries (or refused outright); the ones after it were not tried.
        public var relayFailure: PushError?
        /// Requests made, retries included.
        public var requests = 0

        public init() {}
    }

    public let settings: PushSettings
    let transport: Transport
    let sleep: Sleep
    let log: @Sendable (String) -> Void

    public init(
        settings: PushSettings, transport: Transport? = nil, sleep: @escaping Sleep = { try await Task.sleep(nanoseconds: UInt64($0 * 1e9)) },
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.settings = settings
        self.transport = transport ?? Self.urlSession(timeout: settings.timeout)
        self.sleep = sleep
        self.log = log
    }

    /// Sends every message and says what became of each. A request the relay does not take after its retries
    /// ends the call: the messages of the requests before it stand as the relay answered them, the rest `notSent`.
    /// Throws only when cancelled.
    public func send(_ messages: [PushMessage]) async throws -> Outcome {
        var outcome = Outcome()
        outcome.deliveries = Array(repeating: .notSent, count: messages.count)
        for batch in Self.batches(messages, size: settings.batchSize) {
            let answer: Data
            do {
                answer = try await post(batch.map { messages[$0] }, outcome: &outcome)
            } catch let error as PushError {
                outcome.relayFailure = error
                break
            }
            var failures: [String: String] = [:]
            for failure in GorushWire.failures(in: answer) where failures[failure.token] == nil { failures[failure.token] = failure.error }
            for position in batch {
                let token = messages[position].token
                guard let error = failures[token] else {
                    outcome.deliveries[position] = .accepted
                    continue
                }
                if GorushWire.isDead(error) {
                    outcome.deliveries[position] = .dead(error)
                    log("push: token \(TokenRedaction.tail(token)) is dead (\(error))")
                } else {
                    outcome.deliveries[position] = .failed(error)
                    log("push: token \(TokenRedaction.tail(token)) failed (\(error))")
                }
            }
        }
        return outcome
    }

    /// The messages' positions in requests of at most `size`, in order, with no token twice in one request: gorush
    /// reports a failed push by its token alone, so in a request of distinct tokens each failure names one message.
    static func batches(_ messages: [PushMessage], size: Int) -> [[Int]] {
        var batches: [[Int]] = []
        var tokens: [Set<String>] = []
        var firstOpen = 0
        for (position, message) in messages.enumerated() {
            var target = firstOpen
            while target < batches.count, batches[target].count >= size || tokens[target].contains(message.token) { target += 1 }
            if target == batches.count {
                batches.append([])
                tokens.append([])
            }
            batches[target].append(position)
            tokens[target].insert(message.token)
            while firstOpen < batches.count, batches[firstOpen].count >= size { firstOpen += 1 }
        }
        return batches
    }

    private func post(_ batch: [PushMessage], outcome: inout Outcome) async throws -> Data {
        var request = URLRequest(url: settings.endpoint, timeoutInterval: settings.timeout)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let authorization = settings.authorization { request.setValue(authorization, forHTTPHeaderField: "Authorization") }
        request.httpBody = try GorushWire.body(batch, topic: settings.topic)
        var failures = 0
        while true {
            outcome.requests += 1
            let why: String
            do {
                let (status, body) = try await transport(request)
                if (200..<300).contains(status) { return body }
                guard status >= 500 || status == 429 else { throw PushError.relay("HTTP \(status) refused the request") }
                why = "HTTP \(status)"
            } catch let error as PushError {
                throw error
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                why = Self.describe(error)
            }
            failures += 1
            guard failures < settings.retry.attempts else {
                throw PushError.relay("\(why) after \(failures) attempts")
            }
            let delay = settings.retry.delay(afterFailures: failures)
            log("push: relay attempt \(failures) failed (\(why)); again in \(delay) s")
            try await sleep(delay)
        }
    }

    static func describe(_ error: Error) -> String {
        if let error = error as? URLError {
            return error.code == .timedOut ? "timed out" : "transport error \(error.code.rawValue)"
        }
        return "transport error"
    }

    static func urlSession(timeout: TimeInterval) -> Transport {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.timeoutIntervalForResource = timeout
        let session = URLSession(configuration: configuration)
        return { request in
            let (data, response) = try await session.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        }
    }
}
