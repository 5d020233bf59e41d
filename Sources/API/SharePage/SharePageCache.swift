import Fuel
import Synchronization

/// Station pages of the current snapshot, built on first request and kept until a newer snapshot is seen.
///
/// Keyed by the published view itself (held weakly, so an old snapshot is never kept alive by the cache).
/// A request that still holds an older view gets a page built for it, but does not evict the newer pages.
final class SharePageCache: Sendable {
    private struct State {
        weak var view: PettyView?
        var version: UInt64 = 0
        var pages: [StationSharePage?] = []
    }

    private let state = Mutex(State())
    let appStoreID: String?
    let publicURL: PublicURL
    /// Whether an app is configured (App Store id or Android package): the page then links "Open in Petty".
    let hasApp: Bool

    init(appStoreID: String?, publicURL: PublicURL = PublicURL(listenHost: "127.0.0.1", port: 8080), hasApp: Bool = false) {
        self.appStoreID = appStoreID
        self.publicURL = publicURL
        self.hasApp = hasApp
    }

    func page(slot: Int, in view: PettyView) -> StationSharePage {
        let cached = state.withLock { state -> StationSharePage? in
            state.view === view ? state.pages[slot] : nil
        }
        if let cached { return cached }
        let entry = view.snapshot.entries[slot]
        let page = StationSharePage.build(
            entry: entry, status: view.snapshot.status(of: entry.station.provider), appStoreID: appStoreID,
            openInApp: hasApp ? publicURL : nil, standing: { view.index.judge.standing(of: $0, at: entry.station) },
            versus: { view.index.versusAverageComparison($0, slot: slot) })
        state.withLock { state in
            if state.view !== view {
                guard state.view == nil || view.version >= state.version else { return }
                state.view = view
                state.version = view.version
                state.pages = Array(repeating: nil, count: view.snapshot.entries.count)
            }
            state.pages[slot] = page
        }
        return page
    }
}
