import Fuel
import HTTP

/// What every HTML page shares: the document head's fixed links, the site header and footer, the attribution
/// each provider's licence asks for, and the response headers (no script is ever allowed).
enum PageChrome {
    static let contentSecurityPolicy =
        "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The opening of every page, up to and including `<title>`'s start.
    static let documentStart: StaticString = """
        <!DOCTYPE html>
        <html lang="en-AU">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">

        """

    /// From the end of the page-specific meta tags to the opening of `main`.
    static let headEnd: StaticString = """
        <meta name="color-scheme" content="light dark">
        <meta name="theme-color" content="#0a6b4d">
        <link rel="icon" href="/favicon.ico" sizes="32x32">
        <link rel="icon" href="/favicon.svg" type="image/svg+xml">
        <link rel="apple-touch-icon" href="/apple-touch-icon.png">
        <link rel="stylesheet" href="/css/petty.css">
        </head>
        <body>
        <header class="site"><a href="/"><img src="/favicon.svg" alt="" width="32" height="32">Petty</a></header>

        """

    static let disclaimer: StaticString =
        "<p>Prices are as reported by retailers and may have changed at the pump. Petty is not affiliated with any government or fuel retailer.</p>\n"

    static let homeLink: StaticString = "<p><a href=\"/\">Petty: Australian fuel prices</a></p>\n"

    /// The credit line each provider's licence asks for.
    static func attribution(_ provider: ProviderID) -> StaticString {
        switch provider {
        case .nsw: "NSW FuelCheck data © State of New South Wales"
        case .wa: "FuelWatch data © Government of Western Australia"
        case .vic: "© State of Victoria accessed via the Victorian Government Service Victoria Platform (CC BY 4.0)"
        case .qld: "Fuel Prices Queensland"
        case .sa: "SAFPIS (South Australian Fuel Pricing Information Scheme)"
        case .tas: "TAS FuelCheck data"
        }
    }

    /// `</main>`, the footer crediting `provider` (or every provider), and the end of the document.
    static func writeEnd(provider: ProviderID?, into html: inout HTMLWriter) {
        html.raw("</main>\n<footer class=\"site\">\n")
        if let provider {
            html.raw("<p>Fuel price data: ")
            html.raw(attribution(provider))
            html.raw(".</p>\n")
        } else {
            html.raw("<p>Fuel price data from the state governments, used under their licences:</p>\n<ul>\n")
            for provider in ProviderID.allCases {
                html.raw("<li>")
                html.raw(attribution(provider))
                html.raw("</li>\n")
            }
            html.raw("</ul>\n")
        }
        html.raw(disclaimer)
        html.raw(homeLink)
        html.raw("</footer>\n</body>\n</html>\n")
    }

    /// Headers of every HTML answer; `Vary: Accept` because the same URL also answers JSON.
    static func headers(status: HTTPStatus) -> HTTPHeaders {
        [
            "Content-Type": "text/html; charset=utf-8",
            "Content-Security-Policy": contentSecurityPolicy,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "strict-origin-when-cross-origin",
            "Cache-Control": status == .ok ? "public, max-age=60" : "no-store",
            "Vary": "Accept, Accept-Encoding",
        ]
    }
}
