import Foundation
import Fuel
import Providers

/// The store the app serves from: the fuel dataset plus its rendered wire form.
typealias PettyStore = FuelStore<RenderedSnapshot>
typealias PettyView = SnapshotView<RenderedSnapshot>

/// `clock` is the app's (injectable) wall clock: rendering judges each station's `open_now` with it.
func makePettyStore(_ dataset: Dataset, clock: @escaping @Sendable () -> Date = { Date() }) -> PettyStore {
    let memo = RenderMemo()
    return PettyStore(initial: dataset) { dataset, index in
        RenderedSnapshot.render(dataset, index: index, memo: memo, wall: clock())
    }
}

/// What controllers share: the store and a clock (injectable for tests).
struct PettyContext: Sendable {
    let store: PettyStore
    let clock: @Sendable () -> Date
    let startedAt: Date
    let appStoreID: String?
    /// Set in follower mode: how copying from the leader goes, for `/health`.
    var follower: (@Sendable () -> FollowerStatus)? = nil
    /// How saving to the data directory goes, for `/health`.
    var persistence: (@Sendable () -> PersistenceHealth)? = nil
    /// How each provider's polls go (nil in follower mode and in-memory tests), for `/health` and `/metrics`.
    var providers: ProviderStatusStore? = nil
    /// Set in fleet mode (`PETTY_ETCD_ENDPOINTS`): role, epoch, leader and lease, for `/health`.
    var coordination: (@Sendable () -> CoordinationInfo)? = nil

    /// "Now" for answers about `state`: the wall clock for live data, the capture instant for sample data.
    func now(for state: AustralianState, in view: PettyView) -> Date {
        view.extra.clocks.now(for: state, wall: clock())
    }

    /// "Now" for `provider`'s data.
    func now(for provider: ProviderID, in view: PettyView) -> Date {
        view.extra.clocks.now(for: provider, wall: clock())
    }
}

struct FollowerStatus: Sendable {
    let leader: String
    let state: FollowerService.State
}
