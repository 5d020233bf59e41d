import Fuel
import Synchronization

/// The summary parts rendered from one advice board, by state and fuel: each is made on the first request for it and
/// then found by a key of two enums, so a summary near a point builds no memo key of its own. Lives exactly as long
/// as the board.
final class SummaryPartsTable: Sendable {
    private let table = Mutex([StateFuel: SummaryParts]())

    func parts(_ key: StateFuel, build: () -> SummaryParts) -> SummaryParts {
        if let kept = table.withLock({ $0[key] }) { return kept }
        let made = build()
        table.withLock { $0[key] = made }
        return made
    }
}
