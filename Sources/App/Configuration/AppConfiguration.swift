import API
import Coordination
import Foundation
import HTTP
import Postgres
import Providers

/// Everything `Run serve` can be told, from flags first and `PETTY_*` environment variables second.
public struct AppConfiguration: Sendable {
    public var environment: Environment = .development
    public var hostname = "127.0.0.1"
    public var port = 8080
    public var threads: Int?
    /// Limits and timeouts of the HTTP server (`PETTY_IDLE_TIMEOUT_SECONDS`, `PETTY_MAX_CONNECTIONS`, ...).
    public var server = ServerConfiguration()
    public var logLevel: Logger.Level = .info
    public var dataDirectory = "./data"
    public var publicDirectory = "Public"
    /// Seed the store from the bundled recorded payloads when the data directory is empty.
    public var loadSampleData = true
    /// `PETTY_APPSTORE_ID`: adds the `apple-itunes-app` banner to share pages.
    public var appStoreID: String?
    /// `PETTY_PUBLIC_URL` / `--public-url`: the base of absolute URLs on share pages; nil derives it from the
    /// listen address (`publicBaseURL`).
    public var publicURL: PublicURL?
    /// `PETTY_ANDROID_PACKAGE` and `PETTY_ANDROID_CERT_SHA256`: serves `/.well-known/assetlinks.json`.
    public var android: AndroidAppLink?
    /// `PETTY_APPLE_APP_ID`: serves `/.well-known/apple-app-site-association`.
    public var apple: AppleAppLink?
    /// `PETTY_TRUSTED_PROXIES`: peers whose `X-Forwarded-For` / `X-Real-IP` are believed (default loopback).
    public var trustedProxies: [IPAddressRange] = TrustedProxyMiddleware().trusted
    /// `PETTY_PROVIDERS` and the provider variables. The default here polls nothing (tests); the environment's
    /// default is every provider with credentials, plus WA.
    public var providers = ProviderSettings()
    /// `PETTY_FOLLOW_URL`: follow this leader instead of polling providers.
    public var followURL: URL?
    /// `PETTY_FOLLOW_SECONDS`: how often a follower asks the leader (a 304 when nothing changed).
    public var followSeconds: Double = 10
    /// Size cap and whole-transfer deadline of one dataset download from the leader.
    public var followLimits = FollowLimits()
    /// `PETTY_FOLLOWERS`: client addresses allowed to copy this instance's dataset (default loopback).
    public var followers: [IPAddressRange] = TrustedProxyMiddleware().trusted
    /// `PETTY_ETCD_*`, `PETTY_FLEET`, `PETTY_ADVERTISE_URL`, `PETTY_LEASE_SECONDS`: fleet mode when endpoints are set.
    public var fleet = FleetOptions()
    /// `PETTY_DATABASE_URL` / `--database-url`: price alerts' PostgreSQL; nil turns alerts off (their routes answer 503).
    public var database: PostgresConfiguration?

    public init() {}

    /// `publicURL`, or `http://hostname:port` of the listen address.
    public var publicBaseURL: PublicURL { publicURL ?? PublicURL(listenHost: hostname, port: port) }
}
