import Foundation
import Fuel

extension QueryParameters {
    /// `open_now=true` on a list: stations known to be open at `wall`, plus those with unknown hours in a state
    /// whose provider publishes no opening facts at all (so the filter never empties a state for want of data).
    /// nil without the parameter.
    func openNowFilter(in view: PettyView, wall: Date) throws -> AccessFilter? {
        guard try bool("open_now") == true else { return nil }
        return AccessFilter(
            opening: .openNow, excludesMembersOnly: false, clocks: view.clocks, wall: wall,
            keepsUnknownIn: view.index.statesWithoutAccessFacts)
    }
}
