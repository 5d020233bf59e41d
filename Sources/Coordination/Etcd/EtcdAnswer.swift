import Foundation

/// Reads one gateway answer. A streaming call (keep-alive) answers newline-separated `{"result": ...}` or
/// `{"error": ...}` objects; only the first matters here. Errors carry gRPC's `code` and `message`; those that
/// mean "this member cannot serve now" (Unavailable, no leader, timeouts) count as unreachable so the next
/// endpoint is tried.
enum EtcdAnswer {
    static func read(_ data: Data, status: Int) throws(EtcdError) -> ProtoJSON.Object {
        let line = data.split(separator: 0x0A, omittingEmptySubsequences: true).first.map { Data($0) } ?? data
        let object: ProtoJSON.Object
        do { object = try ProtoJSON.decode(line) } catch {
            if status >= 500 || status == 0 { throw .unreachable("HTTP \(status)") }
            throw .malformed("HTTP \(status), not JSON")
        }
        if let streamed = object["error"] as? ProtoJSON.Object { try fail(streamed, status: status) }
        if status != 200 { try fail(object, status: status) }
        return object
    }

    private static func fail(_ object: ProtoJSON.Object, status: Int) throws(EtcdError) -> Never {
        let code = Int(ProtoJSON.int64(object["code"]))
        let message = (object["message"] as? String) ?? (object["error"] as? String) ?? "HTTP \(status)"
        let unavailable = code == 14 || code == 4 || status == 503 || message.contains("no leader")
            || message.contains("timed out") || message.contains("leader changed")
        if unavailable { throw .unreachable(message) }
        throw .server(code: code, message: message)
    }
}
