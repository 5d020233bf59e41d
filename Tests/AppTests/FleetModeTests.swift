import Coordination
import Foundation
import Fuel
import HTTP
import Providers
import Synchronization
import Testing
@testable import API
@testable import App

/// Fleet mode's configuration (environment and `serve` flags) and the leader gate in front of the pollers.
@Suite struct FleetModeTests {
    @Test func withoutEndpointsNothingChanges() throws {
        let config = try CommandLineParser.parse([], environment: [:]).1
        #expect(try config.fleet.settings(hostname: config.hostname, port: config.port) == nil)
        let app = try buildApplication(config, logger: Logger(label: "t", level: .critical, sink: .inMemory()), dataset: Dataset()).app
        let health = try JSONParser.parse(try app.test(.GET, "/health").body)
        #expect(health["coordination"] == nil)
    }

    @Test func theEnvironmentNamesEverySettingAndDefaultsApply() throws {
        let env = [
            "PETTY_ETCD_ENDPOINTS": "http://10.0.0.1:2379, https://10.0.0.2:2379", "PETTY_ETCD_USERNAME": "petty",
            "PETTY_ETCD_PASSWORD": "pw", "PETTY_ADVERTISE_URL": "http://10.0.0.11:8080",
        ]
        let config = try CommandLineParser.parse([], environment: env).1
        let settings = try #require(try config.fleet.settings(hostname: config.hostname, port: config.port))
        #expect(settings.endpoints.map(\.absoluteString) == ["http://10.0.0.1:2379", "https://10.0.0.2:2379"])
        #expect(settings.credentials == EtcdCredentials(username: "petty", password: "pw"))
        #expect(settings.fleet == "petty")
        #expect(settings.leaseSeconds == 10)
        #expect(settings.advertiseURL.absoluteString == "http://10.0.0.11:8080")
        #expect(settings.memberName == "10.0.0.11:8080")
    }

    @Test func serveFlagsOverrideTheEnvironment() throws {
        let env = ["PETTY_ETCD_ENDPOINTS": "http://a:2379", "PETTY_FLEET": "one", "PETTY_LEASE_SECONDS": "5"]
        let config = try CommandLineParser.parse(
            ["serve", "--etcd-endpoints", "http://b:2379", "--fleet=two", "--lease-seconds", "4", "--port", "9001"], environment: env).1
        let settings = try #require(try config.fleet.settings(hostname: "127.0.0.1", port: config.port))
        #expect(settings.endpoints.map(\.absoluteString) == ["http://b:2379"])
        #expect(settings.fleet == "two")
        #expect(settings.leaseSeconds == 4)
        #expect(settings.advertiseURL.absoluteString == "http://127.0.0.1:9001")
    }

    @Test(arguments: [
        (["PETTY_ETCD_ENDPOINTS": "etcd:2379"], "PETTY_ETCD_ENDPOINTS"),
        (["PETTY_ETCD_ENDPOINTS": ","], "no endpoint"),
        (["PETTY_ETCD_ENDPOINTS": "http://a:2379", "PETTY_LEASE_SECONDS": "1"], "PETTY_LEASE_SECONDS"),
        (["PETTY_ETCD_ENDPOINTS": "http://a:2379", "PETTY_FLEET": "a/b"], "PETTY_FLEET"),
        (["PETTY_ETCD_ENDPOINTS": "http://a:2379", "PETTY_ADVERTISE_URL": "10.0.0.1"], "PETTY_ADVERTISE_URL"),
        (["PETTY_ETCD_ENDPOINTS": "http://a:2379", "PETTY_FOLLOW_URL": "http://b:8080"], "exclude each other"),
    ])
    func badFleetSettingsAreClearErrors(env: [String: String], mentions: String) {
        #expect {
            try CommandLineParser.parse([], environment: env)
        } throws: { error in
            "\(error)".contains(mentions)
        }
    }

    @Test func aUserWithoutAPasswordIsRefused() throws {
        let config = try CommandLineParser.parse([], environment: ["PETTY_ETCD_ENDPOINTS": "http://a:2379", "PETTY_ETCD_USERNAME": "u"]).1
        #expect(throws: CommandLineError.self) { try config.fleet.settings(hostname: "h", port: 1) }
    }

    final class CountingPoller: ProviderPoller {
        let provider = ProviderID.wa
        let interval: TimeInterval = 60
        let plan = "wa (counting)"
        let polls = Mutex(0)
        func poll(at now: Date, sink: any ProviderSink) async -> PollOutcome {
            polls.withLock { $0 += 1 }
            return PollOutcome(.idle("counted"), next: now)
        }
    }

    @Test func aClosedGateMakesNoProviderCallAndMergesNothing() async {
        let open = Mutex(false)
        let mayAct: @Sendable () -> Bool = { open.withLock { $0 } }
        let inner = CountingPoller()
        let store = makePettyStore(Dataset())
        let sink = GatedSink(inner: FuelStoreSink(store: store), mayAct: mayAct)
        let gated = GatedPoller(inner, mayAct: mayAct)
        _ = await gated.poll(at: Date(), sink: sink)
        #expect(inner.polls.withLock { $0 } == 0)
        let station = StationRecord(
            key: StationKey(provider: .wa, sourceID: "1"), name: "A", brand: "B", address: "1 Rd", suburb: "PERTH", state: .WA,
            postcode: nil, location: Coordinate(latitude: -31.95, longitude: 115.86))
        let update = ProviderUpdate(provider: .wa, stations: [station], prices: [], asOf: Date())
        #expect(!sink.apply(update, at: Date()).isApplied)
        #expect(store.current.snapshot.stationCount == 0)
        open.withLock { $0 = true }
        _ = await gated.poll(at: Date(), sink: sink)
        #expect(inner.polls.withLock { $0 } == 1)
    }
}
