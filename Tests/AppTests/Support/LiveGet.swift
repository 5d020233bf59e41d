import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A plain GET to a server started with `startLive()`, as a client sees it.
struct LiveGet {
    let status: Int
    let body: Data
    let response: HTTPURLResponse?

    init(port: Int, _ path: String) async throws {
        let (body, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        self.body = body
        self.response = response as? HTTPURLResponse
        status = self.response?.statusCode ?? 0
    }

    /// The body as a JSON object.
    func json() throws -> [String: Any] {
        try require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
    }
}
