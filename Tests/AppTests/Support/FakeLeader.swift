import Foundation
import Fuel
import HTTP
import Providers
import Synchronization
@testable import API
@testable import App

/// A leader on loopback, built on our own HTTP module, serving whatever dataset a test sets, with the real
/// endpoint's conditional GET (so a follower that refused a dataset gets a 304 for it next time) and its sealed
/// form for a follower that asks for it; and `/internal/v1/providers` once a test sets the leader's provider health.
final class FakeLeader: @unchecked Sendable {
    private let app: Application
    /// The unsealed body, or a raw body served as it is (`serve(raw:)`), with its ETag.
    private let served: Mutex<(body: [UInt8], etag: String, raw: Bool)>
    private let providers = Mutex<[UInt8]?>(nil)
    private let acceptEncoding = Mutex<String?>(nil)
    private(set) var port = 0

    /// Serves `dataset` until told otherwise.
    init(serving dataset: Dataset) throws {
        served = Mutex((try ReplicationPayload.encode(dataset), DatasetWire.etag(dataset.snapshot), false))
        app = Application(environment: .testing, logger: AppTestSupport.quietLogger())
        app.server.threads = 1
        app.on(.GET, "internal", "v1", "dataset") { [self] request in
            self.acceptEncoding.withLock { $0 = request.headers.first(name: "Accept-Encoding") }
            let (body, etag, raw) = self.served.withLock { ($0.body, $0.etag, $0.raw) }
            if request.headers.first(name: "If-None-Match") == etag {
                return Response(status: .notModified, headers: ["ETag": etag])
            }
            let sealed = !raw && request.headers.first(name: "Accept")?.contains(DatasetWire.sealedContentType) == true
            return Response(
                status: .ok, headers: ["Content-Type": DatasetWire.contentType, "ETag": etag], body: sealed ? FileSeal.seal(body) : body)
        }
        app.on(.GET, "internal", "v1", "providers") { [self] _ in
            guard let body = self.providers.withLock({ $0 }) else { return Response(status: .notFound) }
            return Response(status: .ok, headers: ["Content-Type": "application/json"], body: body)
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
        served.withLock { $0 = (body, DatasetWire.etag(dataset.snapshot), false) }
    }

    /// Serves `body` exactly, whatever the follower asks for (a damaged or unsealed payload).
    func serve(raw body: [UInt8], etag: String) {
        served.withLock { $0 = (body, etag, true) }
    }

    /// What `/internal/v1/providers` answers from now on.
    func report(_ health: [ProviderID: ProviderHealth]) throws {
        let body = try LeaderProvidersBody.encode(health)
        providers.withLock { $0 = body }
    }
}
