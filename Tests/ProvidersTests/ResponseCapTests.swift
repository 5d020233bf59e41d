import Foundation
import Testing
@testable import Providers

/// The response cap bounds memory, not just the body handed back: a gzip bomb (400 KB inflating to 384 MiB) and an
/// endless chunked body, both on loopback, fail with `.tooLarge` while this process's peak RSS grows by far less
/// than the bomb. The client also asks for an uncompressed body. libcurl inflates the whole bomb even after the cap
/// fires (it reads the 1 MB in one go and cancelling waits for that), so the bomb test is slow on a busy machine.
@Suite(.serialized, .timeLimit(.minutes(5)))
struct ResponseCapTests {
    static let cap = ProviderClient.Options().maxResponseBytes
    /// Well above the 16 MiB cap plus a few chunks in flight; far below what the bomb would cost unchecked.
    static let growthBound = 200 << 20
    /// A server-side stop, so a broken cap cannot eat the machine: 2 GiB per connection.
    static let safetyStop = 2 << 30

    func client() -> ProviderClient {
        ProviderClient(options: .init(userAgent: ProviderClient.defaultUserAgent(version: "test"), retry: .none))
    }

    static func bombPart(_ name: String) throws -> [UInt8] {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures/gzip_bomb"))
        return Array(try Data(contentsOf: url))
    }

    /// `head + unit x bombUnits + tail` is a valid gzip of `bombUnits` MiB of zeros (see `Fixtures/gzip_bomb/make_gzip_bomb.py`).
    /// Nearly twice `growthBound`, so a client holding the inflated body would fail the memory check; libcurl inflates
    /// all of it, so every MiB costs CPU. `Robustness/upstream.py` sends the server 1 GiB and 4 GiB bombs.
    static let bombUnits = 384

    @Test func aGzipBombFailsAsTooLargeWhileMemoryStaysBounded() async throws {
        let (head, unit, tail) = (try Self.bombPart("head.bin"), try Self.bombPart("unit.bin"), try Self.bombPart("tail.bin"))
        let server = try RawLoopbackServer { connection in
            let length = head.count + unit.count * Self.bombUnits + tail.count
            let fields = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n"
            guard connection.write(fields), connection.write(head) else { return }
            for _ in 0..<Self.bombUnits { guard connection.write(unit) else { return } }
            _ = connection.write(tail)
        }
        defer { server.stop() }
        await expectTooLargeWithinTheMemoryBound(server, "gzip bomb") { "\(server.bytesSent) bytes sent of \(unit.count * Self.bombUnits)" }
    }

    @Test func anEndlessChunkedBodyFailsAsTooLargeWhileMemoryStaysBounded() async throws {
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x20, count: 0x10000) + Array("\r\n".utf8)
        let server = try RawLoopbackServer { connection in
            guard connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n") else { return }
            var sent = 0
            while sent < Self.safetyStop, connection.write(chunk) { sent += chunk.count }
        }
        defer { server.stop() }
        await expectTooLargeWithinTheMemoryBound(server, "endless body") { "\(server.bytesSent >> 20) MiB sent" }
    }

    /// Fetches from `server`, expects `.tooLarge`, and expects this process's peak RSS to have grown by less than
    /// `growthBound`; prints the figures (and `sent`, what the server wrote) under `label`.
    private func expectTooLargeWithinTheMemoryBound(_ server: RawLoopbackServer, _ label: String, sent: () -> String) async {
        let client = client()
        let measured = await ResidentMemory.peak { await client.send(ProviderRequest(base: server.baseURL, path: "/body", timeout: 60)) }
        let growth = measured.peak - measured.before
        print("\(label): RSS before \(measured.before >> 20) MiB, peak \(measured.peak >> 20) MiB (+\(growth >> 20) MiB), \(sent())")
        #expect(measured.result.failure == .tooLarge(limit: Self.cap))
        #expect(growth < Self.growthBound, "RSS grew by \(growth >> 20) MiB")
    }

    @Test func requestsAskForAnUncompressedBody() async throws {
        let server = try RawLoopbackServer { connection in
            _ = connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
        }
        defer { server.stop() }
        _ = try await client().send(ProviderRequest(base: server.baseURL, path: "/plain", timeout: 5)).get()
        let head = try #require(server.requestHeads.first).lowercased()
        #expect(head.contains("\r\naccept-encoding: identity\r\n"), "\(head)")
    }
}
