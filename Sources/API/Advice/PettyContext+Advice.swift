import Foundation
import Fuel

extension PettyContext {
    private static let boardKey = SnapshotMemo.Key(kind: "advice-board", detail: "")
    /// The board for the instant the current one expires, built ahead of it (`AdviceBoardWarmer`).
    private static let nextBoardKey = SnapshotMemo.Key(kind: "advice-board", detail: "next")
    private static let boardBytes = 256 << 10

    /// The advice board for `view` at this context's clock: built when the snapshot is published
    /// (`prepareAdvice`) and again ahead of each boundary a city's clock crosses (`prepareNextAdvice`), so a
    /// request only reads it. A board missing anyway (a clock set back) is built here, as a last resort.
    func adviceBoard(_ view: PettyView) -> AdviceBoard {
        let wall = clock()
        if let board: AdviceBoard = memo.kept(Self.boardKey, in: view, wall: wall) { return board }
        if let next: AdviceBoard = memo.kept(Self.nextBoardKey, in: view, wall: wall) { return next }
        return Self.board(for: view, at: wall, key: Self.boardKey, memo: memo)
    }

    /// What builds and keeps the board of a view about to be published (`FuelStore.preparing`), off the event loops.
    /// It holds the memo and the clock, not the context, so the store does not hold itself.
    package var prepareAdvice: @Sendable (PettyView) -> Void {
        let (memo, clock) = (memo, clock)
        return { view in _ = Self.board(for: view, at: clock(), key: Self.boardKey, memo: memo) }
    }

    /// When the current board expires within `lead` of the clock, builds the board for that instant and keeps it
    /// beside the current one, to answer from the instant it starts to hold. Returns when the next call is due.
    @discardableResult
    func prepareNextAdvice(lead: TimeInterval) -> Date {
        let view = store.current
        let wall = clock()
        let current = adviceBoard(view)
        let boundary = current.expiresAt
        guard boundary < .distantFuture else { return wall.addingTimeInterval(lead) }
        if boundary.timeIntervalSince(wall) <= lead {
            let next: AdviceBoard? = memo.kept(Self.nextBoardKey, in: view, wall: boundary)
            if next == nil { _ = Self.board(for: view, at: boundary, key: Self.nextBoardKey, memo: memo) }
            return boundary
        }
        return boundary.addingTimeInterval(-lead)
    }

    /// The boards kept for `view` that hold at `wall`, without building any (for tests).
    func keptAdviceBoards(_ view: PettyView, at wall: Date) -> (current: AdviceBoard?, next: AdviceBoard?) {
        (memo.kept(Self.boardKey, in: view, wall: wall), memo.kept(Self.nextBoardKey, in: view, wall: wall))
    }

    private static func board(for view: PettyView, at wall: Date, key: SnapshotMemo.Key, memo: SnapshotMemo) -> AdviceBoard {
        memo.value(key, in: view, wall: wall, freshness: \.freshness, bytes: { _ in boardBytes }) {
            AdviceBoard(view: view, wall: wall)
        }
    }

    /// The summary parts for `state` and `fuel` rendered from `board`, kept exactly as long as the board (in its
    /// `summaryParts`).
    func summaryParts(_ key: StateFuel, board: AdviceBoard, view: PettyView) -> SummaryParts {
        board.summaryParts.parts(key) { SummaryParts(view: view, board: board, state: key.state, fuel: key.fuel) }
    }
}
