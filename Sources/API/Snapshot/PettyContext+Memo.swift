import HTTP

extension PettyContext {
    /// The handler for a route answered from the memo: each request reads the current snapshot; one naming a
    /// `perClient` parameter is rendered each time, any other is kept while `freshness` holds.
    func memoizing(
        _ freshness: SnapshotMemo.Freshness, perClient: PerClientQuery = [],
        render: @escaping @Sendable (Request, PettyView) throws -> Response
    ) -> @Sendable (Request) throws -> Response {
        { request in
            let view = store.current
            guard !perClient.matches(request) else { return try render(request, view) }
            return try memoized(request, in: view, freshness: freshness) { try render(request, view) }
        }
    }

    /// `render`'s response for `request`, kept in the memo for the current snapshot (`view`) while `freshness`
    /// holds by this context's clock.
    func memoized(
        _ request: Request, variant: String = "", in view: PettyView, freshness: SnapshotMemo.Freshness,
        render: () throws -> Response
    ) rethrows -> Response {
        try memo.response(request, variant: variant, in: view, wall: clock(), freshness: freshness, render: render)
    }
}
