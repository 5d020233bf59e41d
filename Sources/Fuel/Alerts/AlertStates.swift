/// Every alert's states, by (alert, station): what the evaluator reads once per matched rule, half a million times
/// in a poll of 2,000 changes over a million alerts. A dictionary in behaviour (absent means the default state),
/// held as an open-addressing table with linear probing and a multiplicative hash of the two ids: the standard
/// `Dictionary`'s seeded SipHash and its lookups were a third of a poll's time (`perf`, `alert-evaluation`).
/// The keys are ids this server issues (alert serials, provider station ids), never chosen by a client, so an
/// unseeded hash is safe here.
public struct AlertStates: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    private var keyTable: [AlertStateKey] = []
    private var valueTable: [AlertState] = []
    private var occupied: [Bool] = []
    public private(set) var count = 0

    public init() {}

    public init(minimumCapacity: Int) {
        reserveCapacity(minimumCapacity)
    }

    public init(dictionaryLiteral elements: (AlertStateKey, AlertState)...) {
        reserveCapacity(elements.count)
        for (key, value) in elements { self[key] = value }
    }

    public var isEmpty: Bool { count == 0 }

    public subscript(key: AlertStateKey) -> AlertState? {
        get {
            guard count > 0 else { return nil }
            let position = find(key)
            return occupied[position] ? valueTable[position] : nil
        }
        set {
            if let newValue {
                if occupied.isEmpty || (count + 1) * 2 > occupied.count { grow(to: (count + 1) * 2) }
                let position = find(key)
                if !occupied[position] {
                    occupied[position] = true
                    keyTable[position] = key
                    count += 1
                }
                valueTable[position] = newValue
            } else if count > 0 {
                let position = find(key)
                if occupied[position] { remove(at: position) }
            }
        }
    }

    /// Room for `capacity` states without growing the table.
    public mutating func reserveCapacity(_ capacity: Int) {
        if capacity * 2 > occupied.count { grow(to: capacity * 2) }
    }

    /// Adds `other`'s states; where both hold a key, `combine` says which state stays.
    public mutating func merge(_ other: AlertStates, uniquingKeysWith combine: (AlertState, AlertState) -> AlertState) {
        reserveCapacity(count + other.count)
        for (key, value) in other { self[key] = self[key].map { combine($0, value) } ?? value }
    }

    /// The states, in no particular order.
    public var values: [AlertState] { map(\.value) }

    public func makeIterator() -> Iterator { Iterator(states: self) }

    public struct Iterator: IteratorProtocol {
        fileprivate let states: AlertStates
        fileprivate var position = 0

        public mutating func next() -> (key: AlertStateKey, value: AlertState)? {
            while position < states.occupied.count {
                defer { position += 1 }
                if states.occupied[position] { return (states.keyTable[position], states.valueTable[position]) }
            }
            return nil
        }
    }

    public static func == (lhs: AlertStates, rhs: AlertStates) -> Bool {
        lhs.count == rhs.count && lhs.allSatisfy { rhs[$0.key] == $0.value }
    }

    // MARK: - The table

    /// Where `key` is, or the empty position where it would go.
    private func find(_ key: AlertStateKey) -> Int {
        let mask = occupied.count - 1
        var position = Self.hash(key) & mask
        while occupied[position], keyTable[position] != key { position = (position + 1) & mask }
        return position
    }

    private static func hash(_ key: AlertStateKey) -> Int {
        var mixed = UInt64(bitPattern: key.alertID) &* 0x9E37_79B9_7F4A_7C15
        mixed ^= UInt64(bitPattern: Int64(key.station.rawValue)) &* 0xC2B2_AE3D_27D4_EB4F
        mixed ^= mixed >> 31
        mixed &*= 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 29
        return Int(truncatingIfNeeded: mixed & 0x7FFF_FFFF_FFFF_FFFF)
    }

    /// Linear probing's deletion: later entries of the run move back, so no lookup stops at a hole.
    private mutating func remove(at removed: Int) {
        let mask = occupied.count - 1
        var hole = removed
        var position = (removed + 1) & mask
        while occupied[position] {
            let home = Self.hash(keyTable[position]) & mask
            // The entry may fill the hole when its home is not cyclically within (hole, position].
            if (position > hole && (home <= hole || home > position)) || (position < hole && home <= hole && home > position) {
                keyTable[hole] = keyTable[position]
                valueTable[hole] = valueTable[position]
                hole = position
            }
            position = (position + 1) & mask
        }
        occupied[hole] = false
        count -= 1
    }

    private mutating func grow(to minimum: Int) {
        var capacity = 16
        while capacity < minimum { capacity *= 2 }
        guard capacity > occupied.count else { return }
        let old = (keyTable, valueTable, occupied)
        keyTable = [AlertStateKey](repeating: AlertStateKey(alertID: 0, station: StationID(0)), count: capacity)
        valueTable = [AlertState](repeating: AlertState(), count: capacity)
        occupied = [Bool](repeating: false, count: capacity)
        for position in old.2.indices where old.2[position] {
            let target = find(old.0[position])
            occupied[target] = true
            keyTable[target] = old.0[position]
            valueTable[target] = old.1[position]
        }
    }
}
