import Foundation
import Fuel
import Testing
@testable import API
@testable import App

/// Issue 48 §2: a placeholder is not shown as a price on the share page or in its preview, and a price older than the
/// window reads as old even where a full feed still lists it.
@Suite struct SharePagePriceStandingTests {
    static let snapshot = AppTestSupport.sampleDataset.snapshot
    static let judge = snapshot.judge

    @Test func aPlaceholderReadsAsNotARealPriceAndStaysOutOfThePreview() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let entries = Self.snapshot.entries.filter { entry in
            entry.prices.contains { Self.judge.standing(of: $0, at: entry.station).contains(.implausible) }
        }
        #expect(entries.count >= 10)
        for entry in entries {
            let html = try app.test(.GET, "/stations/\(entry.id)", headers: ["Accept": "text/html"]).bodyString
            let description = try require(html.range(of: "<meta property=\"og:description\" content=\"").map { html[$0.upperBound...] })
                .prefix { $0 != "\"" }
            for price in entry.prices where Self.judge.standing(of: price, at: entry.station).contains(.implausible) {
                #expect(html.contains(
                    "\(price.fuel.displayName)</th><td class=\"price implausible\"><s>\(price.price)</s></td><td class=\"updated implausible\">not a real price"),
                    "\(entry.id) \(price.fuel)")
                #expect(!description.contains("\(price.fuel.displayName) \(price.price)"), "\(entry.id): \(description)")
            }
        }
    }

    @Test func aPriceOlderThanTheWindowReadsAsOldEvenWhenAFullFeedListsIt() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let status = try require(Self.snapshot.status(of: .nsw))
        let cutoff = try require(status.asOf).addingTimeInterval(-PricePolicy.currentMaxAge)
        let entry = try require(Self.snapshot.entries.first { entry in
            entry.station.provider == .nsw
                && entry.prices.contains { $0.updatedAt < cutoff && Self.judge.standing(of: $0, at: entry.station) == .counts }
        })
        let html = try app.test(.GET, "/stations/\(entry.id)", headers: ["Accept": "text/html"]).bodyString
        let old = try require(entry.prices.first { $0.updatedAt < cutoff })
        #expect(html.contains("\(old.fuel.displayName)</th><td class=\"price\">\(old.price)</td><td class=\"updated stale\">last reported "))
    }
}
