import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// A summary near a point copies each station's id and name from the station's list JSON (already escaped) unless
/// the name is shortened: the bytes must be what escaping the name there writes, for names that need escaping too.
@Suite struct SummaryStationNameTests {
    static let names = [
        "Plain Servo", "Quote \"A\" Servo", "Back\\slash\\", "Tab\tand\nnewline", "Émile's ☕ Fuel", "\u{1}\u{1F}control",
        String(repeating: "x", count: SummaryController.maxNameCharacters),
        String(repeating: "y", count: SummaryController.maxNameCharacters + 1),
        String(repeating: "€", count: 30), "\\\"", "\"", "\\",
    ]

    static let dataset: Dataset = {
        let asOf = Date(timeIntervalSince1970: 1_776_000_000)
        let key = { (number: Int) in StationKey(provider: .nsw, sourceID: String(number)) }
        let update = ProviderUpdate(
            provider: .nsw,
            stations: names.indices.map { number in
                StationRecord(
                    key: key(number), name: names[number], brand: "Brand", address: "1 Road", suburb: "Town", state: .NSW,
                    postcode: "2000", location: Coordinate(latitude: -33.87 + Double(number) / 1_000, longitude: 151.21))
            },
            prices: names.indices.map { PriceRecord(station: key($0), fuel: .U91, price: PriceTenths(tenths: 1_800 + $0), updatedAt: asOf) },
            asOf: asOf)
        return Dataset().merging(update, source: .sample, at: asOf).0
    }()

    @Test func theCopiedIDAndNameAreWhatEscapingTheNameWrites() throws {
        var checked = 0
        for entry in Self.dataset.snapshot.entries {
            // As a render stores it: a slice of the detail body, whose indices do not start at zero.
            let plain = StationEncoding.fragment(entry, source: .sample)
            let body = StationEncoding.detailBody(
                fragment: plain[...], openNow: nil, meta: DataMeta(snapshot: Self.dataset.snapshot, states: [entry.station.state]))
            let fragment = StationEncoding.fragment(inDetailBody: body, count: plain.count)
            #expect(Array(fragment) == plain)
            var copied = JSONWriter()
            withUnsafePointer(to: entry) { SummaryController.writeIDAndName($0, fragment: fragment, into: &copied) }
            var written = JSONWriter()
            withUnsafePointer(to: entry) { SummaryController.writeIDAndName($0, fragment: nil, into: &written) }
            #expect(copied.bytes == written.bytes, "\(entry.station.name)")
            let end = try #require(StationEncoding.nameEnd(in: fragment))
            #expect(String(decoding: fragment[end...].prefix(9), as: UTF8.self) == ",\"brand\":")
            checked += 1
        }
        #expect(checked == Self.names.count)
        #expect(StationEncoding.nameEnd(in: Array("{\"id\":1,\"brand\":\"x\"".utf8)[...]) == nil)
        #expect(StationEncoding.nameEnd(in: Array("{\"id\":1,\"name\":\"unterminated\\\"".utf8)[...]) == nil)
    }

    @Test func summariesNearThePointNameEachStationAsShortened() throws {
        let app = try AppTestSupport.app(with: Self.dataset, clock: { Date(timeIntervalSince1970: 1_776_000_000) })
        let res = try app.test(.GET, "/v1/summary?state=NSW&fuel=U91&near=-33.87,151.21")
        #expect(res.status == .ok)
        let data = try #require(try AppTestSupport.json(res)["data"] as? [String: Any])
        let cheapest = try #require(data["cheapest"] as? [[String: Any]])
        #expect(cheapest.count == SummaryController.cheapestCount)
        let byID = Dictionary(uniqueKeysWithValues: Self.dataset.snapshot.entries.map { (Int($0.id.rawValue), $0.station.name) })
        for station in cheapest {
            let id = try #require(station["id"] as? Int)
            #expect(station["name"] as? String == SummaryController.shortened(try #require(byID[id])))
        }
    }
}
