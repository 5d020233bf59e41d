/// Which alert slots a walk over grid cells has already visited: one bit per slot, so an alert listed in several
/// cells is handled once.
struct AlertSlotSet {
    private var words: [UInt64]

    init(capacity: Int) { words = [UInt64](repeating: 0, count: capacity / 64 + 1) }

    /// Adds `slot`; false when it was already there.
    mutating func insert(_ slot: Int) -> Bool {
        let (word, bit) = (slot >> 6, UInt64(1) << UInt64(slot & 63))
        guard words[word] & bit == 0 else { return false }
        words[word] |= bit
        return true
    }
}
