/// LISTEN on a dedicated connection (never one of the pool's: a listening session must stay open and idle).
extension PostgresClient {
    public enum ListenEvent: Sendable, Equatable {
        /// Listening (again): notifications sent while the connection was down are lost, so reload what they track.
        case listening
        case notification(PostgresNotification)
    }

    /// Runs until the task is cancelled: connects, LISTENs on `channel`, hands each notification to `onEvent`, and
    /// after a failure reconnects with the client's backoff. `channel` is lower-case letters, digits and underscores.
    public func listen(on channel: String, onEvent: @Sendable (ListenEvent) async -> Void) async throws {
        guard !channel.isEmpty, channel.utf8.allSatisfy({ ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) || $0 == 95 }) else {
            throw PostgresError.configuration("a LISTEN channel must be lower-case letters, digits and underscores")
        }
        var failures = 0
        while !Task.isCancelled {
            var connection: PostgresConnection?
            do {
                let listener = try await PostgresConnection.connect(configuration, log: log)
                connection = listener
                try await listener.execute("LISTEN \(channel)")
                failures = 0
                await onEvent(.listening)
                while !Task.isCancelled {
                    for note in try await listener.notifications(waitingUpTo: 0.5) { await onEvent(.notification(note)) }
                }
            } catch {
                failures += 1
                let delay = backoff.delay(afterFailures: failures)
                log("postgres: listening on \(channel) failed (\(error)); again in \(delay) s")
                try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            }
            connection?.close()
        }
    }

    /// NOTIFY with the payload as a bind parameter.
    public func notify(_ channel: String, payload: String) async throws {
        _ = try await query("SELECT pg_notify($1, $2)", [.text(channel), .text(payload)])
    }
}
