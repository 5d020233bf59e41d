import Synchronization

/// A value derived from something immutable (a snapshot, an index) that few readers need: built on the first asking,
/// outside any lock, and kept. Two first askers racing may both build it; the first stored is the one every asker
/// gets, so they all see the same value.
public final class BuiltOnce<Value: Sendable>: Sendable {
    private let stored = Mutex<Value?>(nil)

    public init() {}

    /// The kept value, or `build`'s result kept (unless another caller's was kept first).
    public func value(_ build: () -> Value) -> Value {
        if let known = stored.withLock({ $0 }) { return known }
        let made = build()
        return stored.withLock { kept in
            if let kept { return kept }
            kept = made
            return made
        }
    }

    /// Whether the value has been built (tests check what stays unbuilt).
    public var isBuilt: Bool { stored.withLock { $0 != nil } }
}
