import Fuel
import HTTP

/// `GET /.well-known/apple-app-site-association`: the universal-links file that lets the iOS app open share links
/// (`/stations/*`), served like `assetlinks.json` (`application/json`, 200, no redirect, an hour in caches).
/// Registered only when `PETTY_APPLE_APP_ID` is set; otherwise the path is a 404.
struct AppleAppSiteAssociationController: RouteCollection {
    let file: WellKnownFile

    init(app: AppleAppLink) {
        // The id is validated to [A-Za-z0-9_.], so it needs no JSON escaping.
        let text = """
            {
              "applinks": {
                "details": [
                  {
                    "appIDs": ["\(app.appID)"],
                    "components": [
                      { "/": "/stations/*", "comment": "Station share links" }
                    ]
                  }
                ]
              },
              "webcredentials": {
                "apps": ["\(app.appID)"]
              }
            }

            """
        file = WellKnownFile(text)
    }

    func boot(routes: RoutesBuilder) throws {
        routes.get(".well-known", "apple-app-site-association", use: show)
    }

    func show(_ request: Request) throws -> Response { file.response() }
}
