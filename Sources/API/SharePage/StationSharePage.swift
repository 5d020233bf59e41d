import Foundation
import Fuel

/// One station's share page, pre-rendered once per snapshot into byte parts. A request only picks between
/// parts and splices in the public URL, so rendering is a few appends (see `render`).
///
/// Absolute URLs (`og:url`, `og:image`, the app banner's `app-argument`) come from the configured `PublicURL`,
/// never from the request, so the page is the same for every client and safe in shared caches.
/// What depends on the time: WA tomorrow prices (the section and the link preview's mention of them) show
/// from their publication (14:30 Perth the day before) until their trading day starts (06:00). Every other
/// time on the page carries its date ("updated 6:00 am Wed 22 Apr"), so it reads true whenever it is read.
final class StationSharePage: Sendable {
    /// The `<head>` text a link preview shows: title and description, then the twitter card tags.
    struct Preview: Sendable {
        /// From `<!DOCTYPE html>` to `og:description`.
        let head: [UInt8]
        let cards: [UInt8]
    }

    struct Tomorrow: Sendable {
        let section: [UInt8]
        /// The preview while the section shows: it names tomorrow's prices.
        let preview: Preview
        /// Shown while `from <= now < until` (UTC seconds).
        let from: Double
        let until: Double
    }

    let id: StationID
    let preview: Preview
    /// `app-id=...` (escaped), when the app banner is configured.
    let appID: [UInt8]?
    /// From the icon links to the end of the price table.
    let body: [UInt8]
    let tomorrow: Tomorrow?
    /// Directions, data age, footer.
    let tail: [UInt8]
    /// A hash of every byte above, for ETags.
    let hash: UInt64
    private let capacity: Int

    init(id: StationID, preview: Preview, appID: [UInt8]?, body: [UInt8], tomorrow: Tomorrow?, tail: [UInt8]) {
        self.id = id
        self.preview = preview
        self.appID = appID
        self.body = body
        self.tomorrow = tomorrow
        self.tail = tail
        var hash = FNV1a()
        let parts = [preview.head, preview.cards, appID ?? [], body, tomorrow?.section ?? [],
                     tomorrow?.preview.head ?? [], tomorrow?.preview.cards ?? [], tail]
        for part in parts {
            hash.combine(UInt64(part.count))
            hash.combine(part)
        }
        self.hash = hash.value
        let previewBytes = max(preview.head.count + preview.cards.count,
                               (tomorrow?.preview.head.count ?? 0) + (tomorrow?.preview.cards.count ?? 0))
        capacity = previewBytes + body.count + (tomorrow?.section.count ?? 0) + tail.count + 600
    }

    struct Rendered {
        var body: [UInt8]
        /// Strong: the body is a function of the parts' hash, the origin and the time-dependent choice.
        var etag: String
    }

    func render(now: Date, origin: PublicURL?) -> Rendered {
        let seconds = now.timeIntervalSince1970
        let shown = tomorrow.flatMap { seconds >= $0.from && seconds < $0.until ? $0 : nil }
        let preview = shown?.preview ?? self.preview
        var html = HTMLWriter(capacity: capacity)
        var hash = FNV1a()
        hash.combine(self.hash)
        hash.combine(shown == nil ? 0 as UInt8 : 1)
        html.raw(preview.head)
        if let origin {
            hash.combine(origin.html)
            html.raw("<meta property=\"og:url\" content=\"")
            writeURL(origin, into: &html)
            html.raw("\">\n<meta property=\"og:image\" content=\"")
            html.raw(origin.html)
            html.raw("/og-image.png\">\n")
        }
        html.raw(preview.cards)
        if let appID {
            html.raw("<meta name=\"apple-itunes-app\" content=\"")
            html.raw(appID)
            if let origin {
                html.raw(", app-argument=")
                writeURL(origin, into: &html)
            }
            html.raw("\">\n")
        }
        html.raw(body)
        if let shown { html.raw(shown.section) }
        html.raw(tail)
        return Rendered(body: html.bytes, etag: hash.etag)
    }

    private func writeURL(_ origin: PublicURL, into html: inout HTMLWriter) {
        html.raw(origin.html)
        html.raw("/stations/")
        html.int(id.rawValue)
    }
}
