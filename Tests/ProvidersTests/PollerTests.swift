import Foundation
import Fuel
import Testing
@testable import Providers

/// Each poller against the fake provider, merging into a real `FuelStore`: good data arrives, and a failed, empty,
/// half-size, garbled, hung or oversized answer never removes it. `/health` shows `ProviderStatus`, checked here.
@Suite(.serialized, .timeLimit(.minutes(3)), .longScenario)
final class PollerTests: Sendable {
    /// Each test's fake provider (a new instance per test), stopped when the test ends.
    let fake: FakeProvider

    init() throws { fake = try FakeProvider().start() }
    deinit { fake.stop() }

    static let secrets = [FakeProvider.apiKey, FakeProvider.apiSecret, FakeProvider.subscriberToken, FakeProvider.consumerID]

    func expectNoSecret(_ text: String?, sourceLocation: SourceLocation = #_sourceLocation) {
        for secret in Self.secrets { #expect(!(text ?? "").contains(secret), "secret leaked: \(text ?? "")", sourceLocation: sourceLocation) }
    }

    // MARK: NSW and TAS

    @Test func nswFetchesTheFullListFirstThenDeltas() async throws {
        let harness = PollerHarness(fake)
        let poller = harness.nsw()
        let first = await harness.step(poller)
        #expect(fake.count(NSWPoller.fullPath) == 1)
        #expect(harness.stations(.nsw).count == 15)
        let status = try #require(harness.status(.nsw))
        #expect(status.state == .ok && status.source == .live)
        #expect(status.nextPoll != nil)
        #expect(first.count == 1)
        #expect(first[0].range(of: #"^poll nsw ok: 15 stations, \d+ prices, \d+ changed, 0 outliers, \d+ ms, next \d\d:\d\d:\d\dZ"#, options: .regularExpression) != nil, "\(first)")

        let second = await harness.step(poller)
        #expect(fake.count(NSWPoller.deltaPath) == 1)
        #expect(fake.count(NSWPoller.fullPath) == 1)
        #expect(second.first?.hasPrefix("poll nsw ok (delta): 15 stations") == true, "\(second)")
        let umina = try #require(harness.stations(.nsw).first { $0.station.sourceID == "972" })
        #expect(umina.price(of: .DL)?.price == PriceTenths(cents: 199.9))
        #expect(fake.tokensIssued == 1)
    }

    @Test func nswRefreshesAnExpiredTokenAndCarriesOn() async throws {
        let harness = PollerHarness(fake)
        let poller = harness.nsw()
        await harness.step(poller)
        fake.expireToken()
        await harness.step(poller)
        #expect(fake.tokensIssued == 2)
        #expect(fake.count(NSWOAuth.tokenPath) == 2)
        #expect(harness.status(.nsw)?.state == .ok)
    }

    @Test func aFailingNSWKeepsItsStationsAndHealthSaysWhy() async throws {
        let harness = PollerHarness(fake)
        let poller = harness.nsw()
        await harness.step(poller)
        let before = harness.stations(.nsw)
        fake.set(NSWPoller.deltaPath, .status(500))
        let lines = await harness.step(poller)
        #expect(harness.stations(.nsw) == before)
        let status = try #require(harness.status(.nsw))
        #expect(status.state == .failing)
        #expect(status.lastError == "GET /FuelPriceCheck/v1/fuel/prices/new: http 500: internal server error")
        #expect(status.consecutiveFailures == 1)
        let nextPoll = try #require(status.nextPoll)
        #expect(nextPoll.timeIntervalSinceNow > 10 && nextPoll.timeIntervalSinceNow <= 31)
        #expect(lines.first?.range(of: #"^poll nsw failed \(http 500\): keeping 15 stations from \d{4}-\d\d-\d\dT\d\d:\d\dZ, next in \d+s"#, options: .regularExpression) != nil, "\(lines)")
        expectNoSecret(status.lastError)
        lines.forEach { expectNoSecret($0) }
    }

    /// A new day's first poll is a full list; the answers below must all leave yesterday's stations in place.
    @Test(arguments: [
        (FakeProvider.Behaviour.empty, ProviderHealth.State.stale, "empty update"),
        (.halfSize, .stale, "fewer than half"),
        (.garbage, .failing, "decoding"),
        (.hang(seconds: 6), .failing, "timeout"),
        (.huge(bytes: 64 * 1024), .failing, "response larger than 32768 bytes"),
    ])
    func aBadFullListNeverRemovesGoodData(behaviour: FakeProvider.Behaviour, state: ProviderHealth.State, error: String) async throws {
        let harness = PollerHarness(fake)
        await harness.step(harness.nsw())
        let before = harness.stations(.nsw)
        #expect(before.count == 15)
        fake.set(NSWPoller.fullPath, behaviour)
        // A 1 s deadline, so the hanging provider (6 s) times out.
        await harness.step(harness.nsw(cap: 32 * 1024, timeout: 1))
        #expect(harness.stations(.nsw) == before)
        let status = try #require(harness.status(.nsw))
        #expect(status.state == state)
        #expect(status.lastError?.contains(error) == true, "\(status.lastError ?? "nil")")
        #expect(status.stationCount == 15)
        expectNoSecret(status.lastError)
    }

    @Test func tasComesFromTheV2FeedUnderItsOwnProvider() async throws {
        let harness = PollerHarness(fake)
        await harness.step(harness.tas())
        #expect(fake.last(TASPoller.path)?.query == "states=TAS")
        let tas = harness.stations(.tas)
        #expect(tas.count == 15)
        #expect(tas.allSatisfy { $0.station.state == .TAS })
        #expect(harness.status(.tas)?.state == .ok)
        #expect(harness.stations(.nsw).isEmpty)
    }

    // MARK: WA

    static func waSample() throws -> Dataset {
        let sample = try FuelWatchSitesAdapter.adapt(try Fixture.data("wa_api_sites_fuelType_ULP.json"), fetchedAt: Fixture.fetchedAt)
        return Dataset().merging(sample.update, source: .sample, at: Fixture.fetchedAt).0
    }

    @Test func liveRSSReplacesTheWASampleStations() async throws {
        let harness = PollerHarness(fake, seed: try Self.waSample())
        let sampleIDs = Set(harness.stations(.wa).map(\.id))
        #expect(harness.stations(.wa).allSatisfy { $0.station.sourceID.hasPrefix("site-") })
        // 10:00 Perth: today's feeds only (tomorrow's are not due before 14:30).
        let morning = WATradingDay.tradingDay(containing: Date()).instant(hour: 10, in: WATradingDay.zone)
        let lines = await harness.step(harness.wa(), at: { morning })
        let products = fake.requests.filter { $0.path == WAPoller.path }.map(\.query)
        #expect(products == ["Product=1", "Product=2", "Product=4", "Product=5", "Product=6", "Product=10", "Product=11"])
        #expect(fake.last(WAPoller.path)?.header("User-Agent")?.hasPrefix("Petty/") == true)
        let wa = harness.stations(.wa)
        #expect(wa.count > 300)
        // A sample site the feed lists again (the same place) keeps its id and key; every other station is keyed by RSS.
        #expect(wa.allSatisfy { $0.station.sourceID.hasPrefix("rss:") || sampleIDs.contains($0.id) })
        #expect(wa.count { $0.station.sourceID.hasPrefix("rss:") } > 300)
        #expect(wa.contains { $0.station.name == "United Byford" })
        // One feed served for every product: each station carries all seven fuels.
        #expect(wa.first?.prices.count == 7)
        let status = try #require(harness.status(.wa))
        #expect(status.state == .ok && status.source == .live)
        #expect(lines.first?.hasPrefix("poll wa ok: \(wa.count) stations") == true, "\(lines)")
    }

    @Test func aFailingWAProductFailsThePollAndKeepsTheSample() async throws {
        let harness = PollerHarness(fake, seed: try Self.waSample())
        let before = harness.stations(.wa)
        fake.set(WAPoller.path, .times(4, .status(503)))
        let lines = await harness.step(harness.wa())
        #expect(harness.stations(.wa) == before)
        let status = try #require(harness.status(.wa))
        #expect(status.state == .failing && status.source == .sample)
        #expect(status.lastError?.hasPrefix("GET /fuelwatch/fuelWatchRSS?Product=1: http 503") == true, "\(status.lastError ?? "")")
        #expect(lines.first?.range(of: #"^poll wa failed \(http 503\): keeping \d+ stations \(sample\) from .*, next in \d+s"#, options: .regularExpression) != nil, "\(lines)")
    }

    @Test func waTomorrowIsMergedOnlyOncePublishedAndRollsOverAtSix() async throws {
        let wa = try WATradingDayPolls()
        defer { wa.fake.stop() }
        let (zone, today, fake, harness, poller) = (WATradingDay.zone, wa.today, wa.fake, wa.harness, wa.poller)
        let at1440 = today.instant(hour: 14, minute: 40, in: zone)

        // 14:40, not published yet: an empty tomorrow feed is "not yet", never "no stations".
        let lines = await harness.step(poller, at: { at1440 })
        let stations = harness.stations(.wa).count
        #expect(stations > 300)
        #expect(fake.requests.filter { $0.query.hasSuffix("Day=tomorrow") }.count == 7)
        #expect(harness.snapshot.entries.allSatisfy { $0.prices.allSatisfy { $0.tomorrow == nil } })
        #expect(harness.status(.wa)?.state == .ok)
        #expect(lines.first?.contains("tomorrow (\(today.advanced(by: 1))) not yet published") == true, "\(lines)")
        let next = try #require(harness.status(.wa)?.nextPoll)
        #expect(next == at1440.addingTimeInterval(600))

        // 14:50, published: tomorrow prices attach to today's stations; today's prices are untouched.
        fake.publishTomorrow()
        let at1450 = at1440.addingTimeInterval(600)
        let published = await harness.step(poller, at: { at1450 })
        #expect(published.first?.contains("tomorrow (\(today.advanced(by: 1))) published") == true, "\(published)")
        #expect(harness.stations(.wa).count == stations)
        let byford = try #require(harness.stations(.wa).first { $0.station.name == "United Byford" })
        let ulp = try #require(byford.price(of: .U91))
        #expect(ulp.price == PriceTenths(cents: 122.9))
        #expect(ulp.tomorrow?.price == PriceTenths(cents: 124.9))
        #expect(fake.requests.filter { $0.query.hasSuffix("Day=tomorrow") }.count == 14)

        // Published: no more tomorrow requests today.
        await harness.step(poller, at: { at1450.addingTimeInterval(600) })
        #expect(fake.requests.filter { $0.query.hasSuffix("Day=tomorrow") }.count == 14)

        // 06:00 the next morning, tomorrow's prices become today's.
        harness.sink.rollOver(at: today.advanced(by: 1).instant(hour: 6, minute: 0, in: zone).addingTimeInterval(5))
        let rolled = try #require(harness.stations(.wa).first { $0.station.name == "United Byford" }?.price(of: .U91))
        #expect(rolled.price == PriceTenths(cents: 124.9))
        #expect(rolled.tomorrow == nil)
    }

    /// FuelWatch publishes product by product: with ULP published and diesel not yet, the poller keeps asking for
    /// diesel alone until it is published too, instead of counting tomorrow as held.
    @Test func waTomorrowPublishedForSomeProductsIsAskedForAgainUntilAllAre() async throws {
        let wa = try WATradingDayPolls()
        defer { wa.fake.stop() }
        let (zone, today, fake, harness, poller) = (WATradingDay.zone, wa.today, wa.fake, wa.harness, wa.poller)
        let at1440 = today.instant(hour: 14, minute: 40, in: zone)
        fake.publishTomorrow(except: ["4"])
        let partial = await harness.step(poller, at: { at1440 })
        #expect(partial.first?.contains("still waiting for DL") == true, "\(partial)")
        let tomorrowRequests = { fake.requests.filter { $0.query.hasSuffix("Day=tomorrow") }.count }
        #expect(tomorrowRequests() == 7)
        #expect(harness.status(.wa)?.nextPoll == at1440.addingTimeInterval(600))

        fake.publishTomorrow()
        let all = await harness.step(poller, at: { at1440.addingTimeInterval(600) })
        #expect(tomorrowRequests() == 8 && all.first?.contains("still waiting") == false, "\(all)")
        #expect(fake.requests.last { $0.query.hasSuffix("Day=tomorrow") }?.query.contains("Product=4") == true)
        let diesel = harness.stations(.wa).compactMap { $0.price(of: .DL)?.tomorrow }
        #expect(!diesel.isEmpty)
        await harness.step(poller, at: { at1440.addingTimeInterval(1_200) })
        #expect(tomorrowRequests() == 8, "all published: no more tomorrow requests today")
    }

    @Test func waSchedulesTheTomorrowWindowAndTheRollover() async throws {
        let wa = try WATradingDayPolls()
        defer { wa.fake.stop() }
        let (zone, today, harness, poller) = (WATradingDay.zone, wa.today, wa.harness, wa.poller)
        // 14:10: the next step is 14:30, when tomorrow's prices are due.
        let at1410 = today.instant(hour: 14, minute: 10, in: zone)
        await harness.step(poller, at: { at1410 })
        #expect(harness.status(.wa)?.nextPoll == today.instant(hour: 14, minute: 30, in: zone))
        // 05:50: the next step is just after 06:00, for the rollover.
        let early = today.advanced(by: 1).instant(hour: 5, minute: 50, in: zone)
        await harness.step(poller, at: { early })
        #expect(harness.status(.wa)?.nextPoll == today.advanced(by: 1).instant(hour: 6, minute: 0, in: zone).addingTimeInterval(1))
    }

    // MARK: QLD, SA, VIC

    @Test func qldMergesSitesAndPricesAndFetchesSitesOncePerDay() async throws {
        let harness = PollerHarness(fake)
        let poller = harness.informed(.qld)
        await harness.step(poller)
        let qld = harness.stations(.qld)
        #expect(qld.count > 1_700)
        #expect(qld.allSatisfy { $0.station.state == .QLD })
        #expect(qld.contains { $0.station.name == "Liberty Surat" && $0.price(of: .U91) != nil })
        #expect(fake.last(InformedSourcesPoller.pricesPath)?.query == "countryId=21&geoRegionLevel=3&geoRegionId=1")
        #expect(harness.status(.qld)?.state == .ok)
        await harness.step(poller)
        #expect(fake.count(InformedSourcesPoller.sitesPath) == 1)
        #expect(fake.count(InformedSourcesPoller.brandsPath) == 1)
        #expect(fake.count(InformedSourcesPoller.pricesPath) == 2)
    }

    @Test func aHalfSizeSiteListOrEmptyPriceListIsRejectedAndDataKept() async throws {
        let harness = PollerHarness(fake)
        await harness.step(harness.informed(.qld))
        let before = harness.stations(.qld)
        fake.set(InformedSourcesPoller.sitesPath, .halfSize)
        await harness.step(harness.informed(.qld))
        #expect(harness.stations(.qld) == before)
        #expect(harness.status(.qld)?.state == .stale)
        #expect(harness.status(.qld)?.lastError?.contains("fewer than half") == true)

        fake.set(InformedSourcesPoller.sitesPath, .normal)
        fake.set(InformedSourcesPoller.pricesPath, .empty)
        await harness.step(harness.informed(.qld))
        #expect(harness.stations(.qld) == before)
        #expect(harness.status(.qld)?.state == .stale)
        #expect(harness.status(.qld)?.lastError?.contains("no plausible prices") == true, "\(harness.status(.qld)?.lastError ?? "")")
    }

    @Test func saUsesRegionFour() async throws {
        let harness = PollerHarness(fake)
        await harness.step(harness.informed(.sa))
        #expect(fake.last(InformedSourcesPoller.sitesPath)?.query == "countryId=21&geoRegionLevel=3&geoRegionId=4")
        #expect(fake.last(InformedSourcesPoller.pricesPath)?.query == "countryId=21&geoRegionLevel=3&geoRegionId=4")
        #expect(harness.stations(.sa).allSatisfy { $0.station.state == .SA })
        #expect(harness.status(.sa)?.state == .ok)
    }

    @Test func vicMergesPricesWithBrandNames() async throws {
        let harness = PollerHarness(fake)
        await harness.step(harness.vic())
        let vic = harness.stations(.vic)
        #expect(vic.count == 11)
        #expect(vic.contains { $0.station.name == "Bonney Energy - Horsham Truckstop" })
        #expect(vic.contains { !$0.station.brand.isEmpty })
        #expect(harness.status(.vic)?.state == .ok)
    }

    @Test func aProviderRejectingTheTokenIsFailingWithoutQuotingIt() async throws {
        let harness = PollerHarness(fake)
        let poller = InformedSourcesPoller(region: .qld, client: harness.client(), auth: SubscriberTokenAuth(token: "bad-token-0000111"),
                                           base: fake.baseURL, interval: 300, timeout: 1)
        await harness.step(poller)
        let status = try #require(harness.status(.qld))
        #expect(status.state == .failing)
        #expect(status.lastError?.hasPrefix("GET /Subscriber/GetCountryBrands: auth: rejected with http 401") == true, "\(status.lastError ?? "")")
        #expect(status.lastError?.contains("bad-token-0000111") == false)
    }

    // MARK: Running

    @Test func shutdownCancelsAHungPollPromptly() async throws {
        fake.set(InformedSourcesPoller.brandsPath, .hang(seconds: 10))
        let harness = PollerHarness(fake)
        let poller = InformedSourcesPoller(region: .qld, client: harness.client(), auth: SubscriberTokenAuth(token: FakeProvider.subscriberToken),
                                           base: fake.baseURL, interval: 300, timeout: 20)
        let lines = LogLines()
        let group = PollerGroup(pollers: [poller], sink: harness.sink, log: PollLog { _, line in lines.append(line) })
        let running = Task { await group.run() }
        try await Task.sleep(nanoseconds: 300_000_000)
        let started = Date()
        running.cancel()
        await running.value
        // Behaviour, not speed: it stops long before the hung request would have ended.
        #expect(Date().timeIntervalSince(started) < 5)
        // Cancellation is not a provider failure.
        #expect(harness.status(.qld) == nil)
        #expect(lines.all.isEmpty)
    }

    @Test func failureBackoffDoublesFromThirtySecondsUpToTheInterval() {
        let backoff = PollerGroup.Backoff(base: 30)
        for _ in 0..<50 {
            let first = backoff.delay(failures: 1, cap: 1800)
            #expect(first >= 15 && first <= 30)
            let third = backoff.delay(failures: 3, cap: 1800)
            #expect(third >= 60 && third <= 120)
            let many = backoff.delay(failures: 40, cap: 1800)
            #expect(many >= 900 && many <= 1800)
        }
    }
}
