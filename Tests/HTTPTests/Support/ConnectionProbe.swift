#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What a brand-new connection gets from a server: refused at connect, closed or reset without a byte of answer,
/// an answer, or nothing at all within the wait.
enum ConnectionProbe: Equatable {
    case refused
    case closedWithoutAnswer
    case answered
    case noReply

    var isRefused: Bool { self == .refused || self == .closedWithoutAnswer }

    /// Connects, sends one GET and waits up to `waitMillis` for the outcome.
    static func probe(port: Int, path: String = "/hello", waitMillis: Int32 = 200) -> ConnectionProbe {
        let client: RawClient
        do { client = try RawClient(port: port) } catch { return .refused }
        do { try client.send("GET \(path) HTTP/1.1\r\nHost: x\r\n\r\n") } catch { return .closedWithoutAnswer }
        guard let chunk = client.readChunk(timeoutMillis: waitMillis) else { return .noReply }
        return chunk.isEmpty ? .closedWithoutAnswer : .answered
    }
}
