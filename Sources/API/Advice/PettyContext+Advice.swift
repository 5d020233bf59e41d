import Foundation
import Fuel

extension PettyContext {
    /// The advice board for `view`: built on the first request after the snapshot changes or a city's clock
    /// crosses a boundary (`AdviceBoard.nextBoundary`), then kept in the memo.
    func adviceBoard(_ view: PettyView) -> AdviceBoard {
        memo.value(
            SnapshotMemo.Key(kind: "advice-board", detail: ""), in: view, wall: clock(), freshness: \.freshness,
            bytes: { _ in 256 << 10 }
        ) { AdviceBoard(view: view, wall: clock()) }
    }

    /// The summary parts for `state` and `fuel` rendered from `board`, kept exactly as long as the board (in its
    /// `summaryParts`).
    func summaryParts(_ key: StateFuel, board: AdviceBoard, view: PettyView) -> SummaryParts {
        board.summaryParts.parts(key) { SummaryParts(view: view, board: board, state: key.state, fuel: key.fuel) }
    }
}
