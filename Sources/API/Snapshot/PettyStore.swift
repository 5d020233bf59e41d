import Foundation
import Fuel

/// The store the app serves from: the fuel dataset plus its rendered wire form.
package typealias PettyStore = FuelStore<RenderedSnapshot>
package typealias PettyView = SnapshotView<RenderedSnapshot>

/// `clock` is the app's (injectable) wall clock: rendering judges each station's `open_now` with it.
package func makePettyStore(_ dataset: Dataset, clock: @escaping @Sendable () -> Date = { Date() }) -> PettyStore {
    let memo = FragmentCarryOver()
    return PettyStore(initial: dataset) { basis in
        RenderedSnapshot.render(basis, memo: memo, wall: clock())
    }
}
