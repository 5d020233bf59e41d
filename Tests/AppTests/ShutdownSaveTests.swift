import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// A writer registered after persistence, as the pollers and the follower are, whose last poll lands while it is
/// being stopped.
final class LastPollWriter: Service, Sendable {
    let name = "last-poll"
    let store: PettyStore
    static let stationName = "Last Poll Servo"

    init(store: PettyStore) { self.store = store }

    func run() async throws {
        await waitForCancellation()
        // Cancelled already, so a task sleep would return at once: a writer that takes a while to finish.
        usleep(100_000)
        let now = Date()
        let station = StationRecord(
            key: StationKey(provider: .nsw, sourceID: "last-poll"), name: Self.stationName, brand: "Ampol",
            address: "1 George St", suburb: "Sydney", state: .NSW, postcode: "2000",
            location: Coordinate(latitude: -33.87, longitude: 151.21))
        let price = PriceRecord(station: station.key, fuel: .U91, price: PriceTenths(tenths: 1_899), updatedAt: now)
        _ = store.apply(ProviderUpdate(provider: .nsw, stations: [station], prices: [price], asOf: now), source: .live, at: now)
    }
}

@Suite(.serialized) struct ShutdownSaveTests {
    @Test func theFinalSaveRunsAfterEveryWriterHasStoppedAndTheSlowRequestFinished() throws {
        let directory = AppTestSupport.temporaryDirectory()
        let (app, store) = try buildApplication(
            AppTestSupport.config(dataDirectory: directory), logger: AppTestSupport.quietLogger(), dataset: AppTestSupport.sampleDataset)
        app.register(service: LastPollWriter(store: store))
        app.get("test-slow") { _ -> String in
            usleep(300_000)
            return "slow done"
        }
        let port = try app.startLive()
        let answered = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var status = 0
        URLSession.shared.dataTask(with: URL(string: "http://127.0.0.1:\(port)/test-slow")!) { _, response, _ in
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
            answered.signal()
        }.resume()
        Thread.sleep(forTimeInterval: 0.1)

        app.shutdown()
        #expect(answered.wait(timeout: .now() + 5) == .success)
        #expect(status == 200)
        let saved = DataDirectory(path: directory, logger: AppTestSupport.quietLogger()).load()
        #expect(saved.hadSnapshot)
        #expect(saved.dataset.snapshot.entries.contains { $0.station.name == LastPollWriter.stationName })
    }
}
