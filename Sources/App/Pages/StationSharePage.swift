import Foundation
import Fuel

/// One station's share page, pre-rendered once per snapshot into byte parts. A request only picks between
/// parts and splices in its own origin, so rendering is a few appends (see `render`).
///
/// What depends on the request: the origin (`og:url`, `og:image`, the app banner's `app-argument`).
/// What depends on the time: each price says "updated 2:35 pm" on the day it was set in the station's
/// zone and "updated 14 Jan" after; WA tomorrow prices show from their publication (14:30 Perth the day
/// before) until their trading day starts (06:00). Both are decided by comparing `now` with instants
/// computed here, so no calendar work happens per request.
final class StationSharePage: Sendable {
    struct Row: Sendable {
        /// `<tr><th scope="row">Unleaded 91</th><td class="price">189.9</td><td class="updated">`
        let start: [UInt8]
        /// `updated 2:35 pm` and `updated 14 Jan`
        let sameDay: [UInt8]
        let otherDay: [UInt8]
        /// The local day of the update, as UTC seconds: [start, end).
        let dayStart: Double
        let dayEnd: Double
    }

    struct Tomorrow: Sendable {
        let section: [UInt8]
        /// Shown while `from <= now < until` (UTC seconds).
        let from: Double
        let until: Double
    }

    let id: StationID
    /// From `<!DOCTYPE html>` to `og:description`.
    let head: [UInt8]
    /// The twitter card tags.
    let cards: [UInt8]
    /// `app-id=...` (escaped), when the app banner is configured.
    let appID: [UInt8]?
    /// From the icon links to the price caption.
    let beforeRows: [UInt8]
    let rows: [Row]
    /// The end of the price table and `p.cheapest`.
    let afterRows: [UInt8]
    let tomorrow: Tomorrow?
    /// Directions, data age, footer.
    let tail: [UInt8]
    /// A hash of every byte above, for ETags.
    let hash: UInt64
    private let capacity: Int

    init(
        id: StationID, head: [UInt8], cards: [UInt8], appID: [UInt8]?, beforeRows: [UInt8], rows: [Row],
        afterRows: [UInt8], tomorrow: Tomorrow?, tail: [UInt8]
    ) {
        self.id = id
        self.head = head
        self.cards = cards
        self.appID = appID
        self.beforeRows = beforeRows
        self.rows = rows
        self.afterRows = afterRows
        self.tomorrow = tomorrow
        self.tail = tail
        var hash = FNV1a()
        for part in [head, cards, appID ?? [], beforeRows, afterRows, tomorrow?.section ?? [], tail] {
            hash.combine(UInt64(part.count))
            hash.combine(part)
        }
        for row in rows {
            hash.combine(row.start)
            hash.combine(row.sameDay)
            hash.combine(row.otherDay)
        }
        self.hash = hash.value
        capacity = head.count + cards.count + beforeRows.count + afterRows.count + (tomorrow?.section.count ?? 0) + tail.count
            + rows.reduce(0) { $0 + $1.start.count + max($1.sameDay.count, $1.otherDay.count) + 10 } + 600
    }

    struct Rendered {
        var body: [UInt8]
        /// Strong: the body is a function of the parts' hash, the origin and the time-dependent choices.
        var etag: String
    }

    func render(now: Date, origin: RequestOrigin?) -> Rendered {
        let seconds = now.timeIntervalSince1970
        var html = HTMLWriter(capacity: capacity)
        var hash = FNV1a()
        hash.combine(self.hash)
        html.raw(head)
        if let origin {
            hash.combine(origin.bytes)
            html.raw("<meta property=\"og:url\" content=\"")
            writeURL(origin, into: &html)
            html.raw("\">\n<meta property=\"og:image\" content=\"")
            html.raw(origin.bytes)
            html.raw("/og-image.png\">\n")
        }
        html.raw(cards)
        if let appID {
            html.raw("<meta name=\"apple-itunes-app\" content=\"")
            html.raw(appID)
            if let origin {
                html.raw(", app-argument=")
                writeURL(origin, into: &html)
            }
            html.raw("\">\n")
        }
        html.raw(beforeRows)
        for row in rows {
            let sameDay = seconds >= row.dayStart && seconds < row.dayEnd
            hash.combine(sameDay ? 1 as UInt8 : 0)
            html.raw(row.start)
            html.raw(sameDay ? row.sameDay : row.otherDay)
            html.raw("</td></tr>\n")
        }
        html.raw(afterRows)
        if let tomorrow, seconds >= tomorrow.from, seconds < tomorrow.until {
            hash.combine(2 as UInt8)
            html.raw(tomorrow.section)
        }
        html.raw(tail)
        return Rendered(body: html.bytes, etag: hash.etag)
    }

    private func writeURL(_ origin: RequestOrigin, into html: inout HTMLWriter) {
        html.raw(origin.bytes)
        html.raw("/stations/")
        html.int(id.rawValue)
    }
}
