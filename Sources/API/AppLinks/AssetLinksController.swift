import Fuel
import HTTP

/// `GET /.well-known/assetlinks.json`: the Digital Asset Links statement that lets the Android app open share
/// links (`/stations/*`), served like the Apple `apple-app-site-association` file beside it (`application/json`,
/// 200, no redirect, an hour in caches). Registered only when `PETTY_ANDROID_PACKAGE` is set; otherwise the path
/// is a plain 404 (or a file an operator put in `Public/.well-known/`).
struct AssetLinksController: RouteCollection {
    let file: WellKnownFile

    init(app: AndroidAppLink) {
        // Package and fingerprints are validated to [A-Za-z0-9_.:], so they need no JSON escaping.
        let fingerprints = app.fingerprints.map { "\"\($0)\"" }.joined(separator: ", ")
        let text = """
            [
              {
                "relation": ["delegate_permission/common.handle_all_urls"],
                "target": {
                  "namespace": "android_app",
                  "package_name": "\(app.package)",
                  "sha256_cert_fingerprints": [\(fingerprints)]
                }
              }
            ]

            """
        file = WellKnownFile(text)
    }

    func boot(routes: RoutesBuilder) throws {
        routes.get(".well-known", "assetlinks.json", use: show)
    }

    func show(_ request: Request) throws -> Response { file.response() }
}
