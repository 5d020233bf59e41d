import Foundation
import Fuel

/// The store the app serves from: the fuel dataset plus its rendered wire form.
typealias PettyStore = FuelStore<RenderedSnapshot>
typealias PettyView = SnapshotView<RenderedSnapshot>

func makePettyStore(_ dataset: Dataset) -> PettyStore {
    let memo = RenderMemo()
    return PettyStore(initial: dataset) { dataset, index in RenderedSnapshot.render(dataset, index: index, memo: memo) }
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

    /// The instant time-dependent answers use: the wall clock, or the sample data's own time when serving samples.
    func referenceNow(_ view: PettyView) -> Date {
        view.extra.sampleClock ?? clock()
    }
}

struct FollowerStatus: Sendable {
    let leader: String
    let state: FollowerService.State
}
