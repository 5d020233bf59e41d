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
        /// Tokens the relay reported dead (`Unregistered`, `BadDeviceToken`, `NotRegistered`).
        public var deadTokens: Set<String> = []
        /// Other failed tokens, with gorush's error.
        public var failedTokens: [String: String] = [:]
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

    /// Sends every message; throws `PushError.relay` when a batch could not be delivered to the relay after its
    /// retries (the batches before it were sent: `sent` says how many messages).
    public func send(_ messages: [PushMessage]) async throws -> Outcome {
        var outcome = Outcome()
        var start = 0
        while start < messages.count {
            let batch = messages[start..<min(start + settings.batchSize, messages.count)]
            let answer = try await post(batch, outcome: &outcome)
            for failure in GorushWire.failures(in: answer) {
                if GorushWire.isDead(failure.error) {
                    outcome.deadTokens.insert(failure.token)
                    log("push: token \(TokenRedaction.tail(failure.token)) is dead (\(failure.error))")
                } else {
                    outcome.failedTokens[failure.token] = failure.error
                    log("push: token \(TokenRedaction.tail(failure.token)) failed (\(failure.error))")
                }
            }
            start += batch.count
        }
        return outcome
    }

    private func post(_ batch: ArraySlice<PushMessage>, outcome: inout Outcome) async throws -> Data {
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
