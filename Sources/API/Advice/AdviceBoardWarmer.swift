import Foundation
import HTTP

/// Builds the advice board ahead of each boundary a city's clock crosses (midnight, Perth's 06:00 and 14:30), so
/// no request on an event loop waits for one to be built (`PettyContext.prepareNextAdvice`). The board of a newly
/// published snapshot is built by the store's preparation step (`PettyContext.prepareAdvice`).
package struct AdviceBoardWarmer: Service {
    package let name = "advice-board"
    let context: PettyContext
    /// How long before a boundary the next board is built: a build takes milliseconds.
    static let lead: TimeInterval = 2
    /// Without it requests build the board themselves, as before it started.
    package var whenItEnds: ServiceEndPolicy { .keepServing }

    package init(context: PettyContext) {
        self.context = context
    }

    package func run() async throws {
        while !Task.isCancelled {
            let due = context.prepareNextAdvice(lead: Self.lead)
            // At least a tick, at most a second: a new snapshot can move the next boundary.
            let wait = min(1, max(0.05, due.timeIntervalSince(context.clock())))
            try? await Task.sleep(nanoseconds: UInt64(wait * 1e9))
        }
    }
}
