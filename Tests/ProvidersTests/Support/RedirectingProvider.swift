import Foundation
import Fuel
import HTTP
import Synchronization
@testable import Providers

/// Two loopback servers for redirect tests: `origin` plays a provider that answers every data path with a 302 to
/// the same path on `target` (another port, so another origin), and `target` records what reaches it and answers
/// 200 with a body a careless client would show. `origin` issues NSW tokens, or redirects the token call too.
/// `GET /same-origin/...` on `origin` redirects to `/landing` on `origin` itself.
final class RedirectingProvider: @unchecked Sendable {
    static let token = "redirect-test-token-5150"
    /// What the target answers; it must never appear in an error text.
    static let targetBody = "TARGET-SAYS: send your keys to evil.example"

    let origin: Application
    let target: Application
    private(set) var originURL = URL(string: "http://127.0.0.1")!
    private(set) var targetURL = URL(string: "http://127.0.0.1")!
    private let recorded = Mutex<(target: [FakeProvider.Recorded], landing: [FakeProvider.Recorded])>(([], []))

    init(redirectTokenCall: Bool = false) throws {
        origin = Application(environment: .testing, logger: Logger(label: "origin", level: .critical, sink: .inMemory()))
        target = Application(environment: .testing, logger: Logger(label: "target", level: .critical, sink: .inMemory()))
        target.on(.GET, "**") { [self] request in
            recorded.withLock { $0.target.append(Self.record(request)) }
            return Response(status: .ok, contentType: "application/json", body: Array(#"{"access_token":"\#(Self.targetBody)","prices":[],"stations":[]}"#.utf8))
        }
        let targetPort = try target.startLive()
        targetURL = URL(string: "http://127.0.0.1:\(targetPort)")!
        if !redirectTokenCall {
            origin.on(.GET, NSWOAuth.tokenPath.split(separator: "/").map { PathComponent(String($0)) }) { _ in
                Response(contentType: "application/json", body: Array(#"{"access_token":"\#(Self.token)","expires_in":"43199"}"#.utf8))
            }
        }
        origin.on(.GET, "same-origin", "**") { _ in Self.redirect(to: "/landing") }
        origin.on(.GET, "landing") { [self] request in
            recorded.withLock { $0.landing.append(Self.record(request)) }
            return Response(status: .ok, contentType: "application/json", body: Array(#"{"landed":true}"#.utf8))
        }
        origin.on(.GET, "**") { [targetURL] request in
            let query = request.head.rawQuery.map { "?\($0)" } ?? ""
            return Self.redirect(to: targetURL.absoluteString + request.path + query)
        }
        originURL = URL(string: "http://127.0.0.1:\(try origin.startLive())")!
    }

    func stop() {
        origin.shutdown()
        target.shutdown()
    }

    /// Requests that reached the other origin.
    var targetRequests: [FakeProvider.Recorded] { recorded.withLock { $0.target } }
    /// Requests that reached `/landing` after a same-origin redirect.
    var landingRequests: [FakeProvider.Recorded] { recorded.withLock { $0.landing } }

    private static func redirect(to location: String) -> Response {
        Response(status: HTTPStatus(code: 302), headers: ["Location": location, "Content-Type": "text/plain"], body: Array("moved".utf8))
    }

    private static func record(_ request: Request) -> FakeProvider.Recorded {
        FakeProvider.Recorded(path: request.path, query: request.head.rawQuery ?? "", headers: request.headers.map { ($0.name, $0.value) })
    }
}
