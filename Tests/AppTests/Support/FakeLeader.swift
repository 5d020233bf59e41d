import Foundation
import Fuel
import HTTP
import Synchronization
@testable import API
@testable import App

/// A leader on loopback, built on our own HTTP module, serving whatever dataset a test sets, with the real
/// endpoint's conditional GET (so a follower that refused a dataset gets a 304 for it next time).
final class FakeLeader: @unchecked Sendable {
    private let app: Application
    private let served: Mutex<(body: [UInt8], etag: String)>
    private let acceptEncoding = Mutex<String?>(nil)
    private(set) var port = 0

    /// Serves `dataset` until told otherwise.
    init(serving dataset: Dataset) throws {
        served = Mutex((try ReplicationPayload.encode(dataset), ReplicationPayload.etag(dataset.snapshot)))
        app = Application(environment: .testing, logger: AppTestSupport.quietLogger())
        app.server.threads = 1
        app.on(.GET, "internal", "v1", "dataset") { [self] request in
            self.acceptEncoding.withLock { $0 = request.headers.first(name: "Accept-Encoding") }
            let (body, etag) = self.served.withLock { ($0.body, $0.etag) }
            if request.headers.first(name: "If-None-Match") == etag {
                return Response(status: .notModified, headers: ["ETag": etag])
            }
            return Response(status: .ok, headers: ["Content-Type": ReplicationPayload.contentType, "ETag": etag], body: body)
        }
    }

    func start() throws -> FakeLeader {
        port = try app.startLive()
        return self
    }

    func stop() { app.shutdown() }

    /// The `Accept-Encoding` of the last dataset request.
    var lastAcceptEncoding: String? { acceptEncoding.withLock { $0 } }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    func serve(_ dataset: Dataset) throws {
        let body = try ReplicationPayload.encode(dataset)
        served.withLock { $0 = (body, ReplicationPayload.etag(dataset.snapshot)) }
    }
}
