import Fuel
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// WA FuelWatch RSS `fuelWatchRSS?Product=N[&Day=tomorrow]` (PROVIDERS.md §2.1–2.2): one product, one day.
///
/// The feed has no station id. Stations are keyed on their coordinates rounded to 4 decimals (about 11 m):
/// `rss:-32.2154,116.0080`. Coordinates survive rebrands and renames (a trading name changes when a site
/// changes hands; its kerb does not), and all 380 sites of the 2019 capture have distinct rounded coordinates.
/// If two differently named items ever share a key in one payload, both get their normalised trading name
/// appended so neither overwrites the other. These keys cannot match the JSON API's `site-<id>` keys, so a
/// deployment should use one WA source, not both.
public enum FuelWatchRSSAdapter {
    static let source = "WA FuelWatch RSS"

    /// An empty channel (zero items) is valid: before 14:30 WST a tomorrow feed is empty, meaning "not published yet".
    /// `asOf` is the newest price's 06:00 WST start for `.today`, and `fetchedAt` for `.tomorrow` or an empty feed.
    /// A `.today` update names the trading day most of its items are dated (the older on a tie), so a stale feed can
    /// be refused: one item dated ahead (a typo, a clock) must not pass a whole day-old feed as today's.
    public static func adapt(
        _ data: Data, product: FuelWatchProduct, day: FuelWatchDay, fetchedAt: Date
    ) throws(AdapterError) -> Adapted {
        let items = try RSSItems.parse(data, source: source)
        var tally = AdapterTally()
        let keys = stationKeys(items)
        var stations: [StationRecord] = []
        var seen = Set<StationKey>()
        var prices: [PriceRecord] = []
        var tomorrow: [TomorrowPriceRecord] = []
        var itemsByDay: [Int: Int] = [:]
        for (item, key) in zip(items, keys) {
            guard let key, let latitude = item.double("latitude"), let longitude = item.double("longitude") else {
                tally.record(.malformedRow)
                continue
            }
            if seen.insert(key).inserted {
                stations.append(StationRecord(
                    key: key, name: item["trading-name"], brand: item["brand"], address: item["address"],
                    suburb: AddressParser.normalisedSuburb(item["location"]), state: .WA, postcode: nil,
                    location: Coordinate(latitude: latitude, longitude: longitude)))
            }
            guard let price = item.double("price").flatMap(PriceGuard.tenths(cents:)) else { tally.record(.unavailablePrice); continue }
            guard let days = WireTime.days(isoDay: item["date"]) else { tally.record(.badTimestamp); continue }
            switch day {
            case .today:
                itemsByDay[days, default: 0] += 1
                prices.append(PriceRecord(station: key, fuel: product.fuel, price: price, updatedAt: PerthTime.pricingStart(days: days)))
            case .tomorrow:
                tomorrow.append(TomorrowPriceRecord(station: key, fuel: product.fuel, price: price, day: WireTime.dayString(days: days)))
            }
        }
        let feedDay = itemsByDay.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key
        let update = ProviderUpdate(
            provider: .wa, stations: stations, prices: prices, tomorrow: tomorrow,
            asOf: prices.lazy.map(\.updatedAt).max() ?? fetchedAt, tradingDay: feedDay.map(CalendarDay.init(dayNumber:)))
        return Adapted(update: update, tally: tally)
    }

    /// One key per item (nil when the item has no usable coordinates).
    private static func stationKeys(_ items: [RSSItems.Item]) -> [StationKey?] {
        let bases: [String?] = items.map { item in
            guard let latitude = item.double("latitude"), let longitude = item.double("longitude"),
                  Coordinate(latitude: latitude, longitude: longitude).isValid else { return nil }
            return "rss:\(fixed4(latitude)),\(fixed4(longitude))"
        }
        var names: [String: Set<String>] = [:]
        for (item, base) in zip(items, bases) {
            if let base { names[base, default: []].insert(normalisedName(item["trading-name"])) }
        }
        return zip(items, bases).map { item, base in
            guard let base else { return nil }
            let shared = names[base, default: []].count > 1
            return StationKey(provider: .wa, sourceID: shared ? "\(base)|\(normalisedName(item["trading-name"]))" : base)
        }
    }

    /// "-32.2154436" -> "-32.2154", without a formatter.
    static func fixed4(_ value: Double) -> String {
        let scaled = Int((abs(value) * 10_000).rounded())
        let fraction = String(scaled % 10_000)
        return "\(value < 0 && scaled != 0 ? "-" : "")\(scaled / 10_000).\(String(repeating: "0", count: 4 - fraction.count))\(fraction)"
    }

    /// "United Byford" -> "united-byford".
    static func normalisedName(_ name: String) -> String {
        name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).joined(separator: "-")
    }
}

/// The `<item>` children of an RSS 2.0 document, as text. Tolerates a UTF-8 BOM and CRLF line ends.
enum RSSItems {
    struct Item {
        var fields: [String: String] = [:]

        subscript(name: String) -> String { (fields[name] ?? "").trimmingWhitespace() }

        func double(_ name: String) -> Double? {
            Double(self[name]).flatMap { $0.isFinite ? $0 : nil }
        }
    }

    static func parse(_ data: Data, source: String) throws(AdapterError) -> [Item] {
        var body = data
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard body.contains(where: { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D) }) else {
            throw .emptyPayload(source: source)
        }
        if let refusal = crashingMarkup(body) { throw .decodingFailed(source: source, context: refusal) }
        let collector = Collector()
        let parser = XMLParser(data: Data(body))
        parser.delegate = collector
        guard parser.parse() else {
            let detail = parser.parserError.map { String(describing: $0) } ?? "unknown XML error"
            throw .decodingFailed(source: source, context: "line \(parser.lineNumber): \(detail)")
        }
        guard collector.root == "rss", collector.sawChannel else {
            throw .unexpectedShape(source: source, detail: "root <\(collector.root ?? "none")> is not an RSS channel")
        }
        // libxml2 on Linux accepts a body cut off mid-document; a truncated download must not pass as a short feed.
        guard collector.depth == 0 else {
            throw .decodingFailed(source: source, context: "document ends inside <\(collector.root ?? "")> (truncated?)")
        }
        return collector.items
    }

    /// Why swift-corelibs-foundation's XMLParser could crash the process on `body`, or nil. It traps when libxml2
    /// reports an element or attribute name that is not UTF-8 (`<\u{FF}>`), and dereferences NULL on a processing
    /// instruction without data (`<?x?>`), which can also arrive through a DTD entity (`&#60;?x?&#62;`) or in UTF-16.
    /// An RSS feed needs none of that, so this refuses: bytes that are not UTF-8, NUL (UTF-16/32 autodetection), an
    /// encoding other than UTF-8, a DOCTYPE, and `<?target?>`. (Reported by the `wa-rss` fuzzer; see
    /// `AdapterHostileInputTests`.)
    static func crashingMarkup(_ body: Data) -> String? {
        guard String(validating: body, as: UTF8.self) != nil else { return "body is not valid UTF-8" }
        return body.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> String? in
            let bytes = raw.bindMemory(to: UInt8.self)
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
            func matches(_ literal: String, at index: Int) -> Bool {
                let literal = Array(literal.utf8)
                guard bytes.count - index >= literal.count else { return false }
                return literal.indices.allSatisfy { bytes[index + $0] | 0x20 == literal[$0] | 0x20 }
            }
            if bytes.contains(0) { return "NUL byte in body" }
            if matches("<?xml", at: 0), bytes.count > 5, isSpace(bytes[5]),
               let declarationEnd = (5..<(bytes.count - 1)).first(where: { bytes[$0] == 0x3F && bytes[$0 + 1] == 0x3E }),
               let encoding = (5..<declarationEnd).first(where: { matches("encoding", at: $0) }) {
                // encoding = "UTF-8" (either quote, optional spaces around `=`).
                var index = encoding + 8
                while index < declarationEnd, isSpace(bytes[index]) || bytes[index] == 0x3D { index += 1 }
                guard index < declarationEnd, bytes[index] == 0x22 || bytes[index] == 0x27,
                      matches("utf-8", at: index + 1), index + 6 < declarationEnd, bytes[index + 6] == bytes[index]
                else { return "declared encoding is not UTF-8" }
            }
            for index in 0..<max(0, bytes.count - 1) where bytes[index] == 0x3C {
                if bytes[index + 1] == 0x21, matches("doctype", at: index + 2) { return "DOCTYPE in an RSS feed" }
                guard bytes[index + 1] == 0x3F else { continue }
                var end = index + 2
                while end < bytes.count, !isSpace(bytes[end]), bytes[end] != 0x3F { end += 1 }
                if end + 1 < bytes.count, bytes[end] == 0x3F, bytes[end + 1] == 0x3E {
                    return "processing instruction without data"
                }
            }
            return nil
        }
    }

    private final class Collector: NSObject, XMLParserDelegate {
        var root: String?
        var sawChannel = false
        var items: [Item] = []
        /// Open elements; 0 again once the root has closed.
        var depth = 0
        private var current: Item?
        private var text = ""

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            if root == nil { root = name }
            depth += 1
            if name == "channel" { sawChannel = true }
            if name == "item" { current = Item() }
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if current != nil { text += string }
        }

        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
            if current != nil { text += String(decoding: CDATABlock, as: UTF8.self) }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
            if name == "item" {
                if let current { items.append(current) }
                current = nil
            } else if current != nil {
                current?.fields[name] = text
            }
            text = ""
        }
    }
}
