import HTTP

/// `Authorization: Bearer <secret>` on every device route. Whatever is wrong (no header, another scheme, a wrong
/// secret, an id that is not a number, another device's id, an unknown one), the answer is the same 401 after the
/// same work, so it never tells whether an id exists.
struct DeviceAuthorization {
    static let reason = "this device route needs Authorization: Bearer <the secret POST /v1/devices returned for this device>"

    static func unauthorized() -> Abort {
        Abort(.unauthorized, reason: reason, headers: ["WWW-Authenticate": "Bearer", "Cache-Control": "no-store"])
    }

    /// The bearer token, or "" when there is none (still checked, so the work is the same).
    static func secret(of request: Request) -> String {
        guard let value = request.headers.first(name: "Authorization") else { return "" }
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: true)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { return "" }
        return String(parts[1].trimmedSpaces)
    }

    /// The path's device id; 0 (which no device has) for anything that is not one, checked all the same.
    static func deviceID(of request: Request) -> Int64 {
        guard let text = request.parameters.get("id"), text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
              let id = Int64(text) else { return 0 }
        return id
    }

    /// The authenticated device's id; a 401 otherwise.
    static func check(_ request: Request, backend: any AlertsBackend) throws -> Int64 {
        let id = deviceID(of: request)
        let secret = secret(of: request)
        guard try backend.authenticate(deviceID: id, secret: secret), id > 0, !secret.isEmpty else { throw unauthorized() }
        return id
    }
}
