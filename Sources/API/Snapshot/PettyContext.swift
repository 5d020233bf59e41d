import Foundation
import Fuel
import HTTP

/// What controllers share: the store and a clock (injectable for tests).
package struct PettyContext: Sendable {
    package let store: PettyStore
    package let clock: @Sendable () -> Date
    package let startedAt: Date
    /// Bodies and derived values rendered once per snapshot (`SnapshotMemo`), shared by every controller.
    let memo = SnapshotMemo()
    /// Route searches' pages (`AlongPageMemo`), apart from `memo`: routes are many and rarely asked twice, and
    /// must not push the shared answers out. A var for tests that bound it tighter.
    var alongPages = SnapshotMemo(limits: AlongPageMemo.limits)
    package let appStoreID: String?
    /// The base of absolute URLs on pages (`PETTY_PUBLIC_URL`, or the listen address).
    package var publicURL = PublicURL(listenHost: "127.0.0.1", port: 8080)
    /// `PETTY_ANDROID_PACKAGE` and `PETTY_ANDROID_CERT_SHA256`: serves `/.well-known/assetlinks.json` when set.
    package var android: AndroidAppLink? = nil
    package var apple: AppleAppLink? = nil
    /// Set in follower mode: how copying from the leader goes, for `/health`.
    package var follower: (@Sendable () -> FollowerStatus)? = nil
    /// How saving to the data directory goes, for `/health`.
    package var persistence: (@Sendable () -> PersistenceHealth)? = nil
    /// How each provider's polls go (nil in follower mode and in-memory tests), for `/health` and `/metrics`.
    package var providers: (any ProviderHealthSource)? = nil
    /// Set in fleet mode (`PETTY_ETCD_ENDPOINTS`): role, epoch, leader and lease, for `/health`.
    package var coordination: (@Sendable () -> CoordinationInfo)? = nil
    /// Set when `PETTY_DATABASE_URL` is: how price alerts go, for `/health` and `/metrics` (nil: alerts are off).
    package var alerts: (@Sendable () -> AlertsHealth)? = nil
    /// Set when `PETTY_DATABASE_URL` is: the device and alert routes' storage (nil: those routes answer 503).
    package var alertsBackend: (any AlertsBackend)? = nil

    package init(
        store: PettyStore, clock: @escaping @Sendable () -> Date, startedAt: Date, appStoreID: String?,
        follower: (@Sendable () -> FollowerStatus)? = nil, persistence: (@Sendable () -> PersistenceHealth)? = nil,
        providers: (any ProviderHealthSource)? = nil, coordination: (@Sendable () -> CoordinationInfo)? = nil
    ) {
        self.store = store
        self.clock = clock
        self.startedAt = startedAt
        self.appStoreID = appStoreID
        self.follower = follower
        self.persistence = persistence
        self.providers = providers
        self.coordination = coordination
    }

    /// "Now" for answers about `state`: the wall clock for live data, the capture instant for sample data.
    func now(for state: AustralianState, in view: PettyView) -> Date {
        view.clocks.now(for: state, wall: clock())
    }

    /// "Now" for `provider`'s data.
    func now(for provider: ProviderID, in view: PettyView) -> Date {
        view.clocks.now(for: provider, wall: clock())
    }
}
