import Foundation

/// Every observed price change per station and fuel, oldest first: what `/v1/stations/:id/history` answers from.
///
/// Recorded on each applied merge from the merged prices (a price that differs from the station's last mark for
/// the fuel is a change; a re-confirmed price is not), keyed by our station id. Each provider's tracks are pruned
/// against its own `asOf`: marks more than `retentionDays` (100) old are dropped, except the newest of them, the
/// price still in effect when the window opens, so a station whose price has not moved for months keeps it.
/// At least `minimumDays` (90) are always kept. Tracks of stations that leave a feed are kept as they are (like their
/// registry ids): pruning runs only on the tracks a merge touches.
public struct StationHistory: Hashable, Sendable {
    public static let minimumDays = 90
    public static let retentionDays = 100

    /// Packed `StationID` and fuel ordinal (`key(_:_:)`) -> marks, oldest first.
    public private(set) var tracks: [UInt64: PriceTrack]

    public init() { tracks = [:] }

    public init(tracks: [UInt64: PriceTrack]) { self.tracks = tracks.filter { !$0.value.isEmpty } }

    public init(tracks: [UInt64: [PriceMark]]) { self.init(tracks: tracks.mapValues(PriceTrack.init)) }

    public static func key(_ station: StationID, _ fuel: FuelType) -> UInt64 {
        UInt64(UInt32(truncatingIfNeeded: station.rawValue)) << 8 | UInt64(fuel.ordinal)
    }

    public static func station(of key: UInt64) -> StationID { StationID(Int(key >> 8)) }

    public static func fuel(of key: UInt64) -> FuelType? {
        let ordinal = Int(key & 0xFF)
        return ordinal < FuelType.allCases.count ? FuelType.allCases[ordinal] : nil
    }

    public func marks(_ station: StationID, _ fuel: FuelType) -> [PriceMark] {
        tracks[Self.key(station, fuel)]?.marks ?? []
    }

    public var markCount: Int { tracks.values.reduce(0) { $0 + $1.count } }

    /// Appends `price` to its track unless it repeats the last mark's price or predates it (a late-delivered
    /// older price is no change). Within the same second a new price replaces the last mark.
    public mutating func record(_ station: StationID, _ price: StationPrice) {
        let mark = PriceMark(at: price.updatedAt, price: price.price)
        let key = Self.key(station, price.fuel)
        guard let last = tracks[key]?.last else {
            tracks[key] = PriceTrack([mark])
            return
        }
        guard last.tenths != mark.tenths, mark.seconds >= last.seconds else { return }
        if mark.seconds == last.seconds {
            tracks[key]!.replaceLast(with: mark)
        } else {
            tracks[key]!.append(mark)
        }
    }

    /// Records the current prices of `provider`'s stations in `snapshot` and prunes their tracks against the
    /// provider's `asOf` (no pruning without one).
    public func recording(_ snapshot: Snapshot, provider: ProviderID) -> StationHistory {
        var history = self
        let cutoff = snapshot.asOf(provider).map { PriceMark(at: $0.addingTimeInterval(-Double(Self.retentionDays) * 86_400), price: PriceTenths(tenths: 0)).seconds }
        for entry in snapshot.entries where entry.station.provider == provider {
            for price in entry.prices {
                history.record(entry.id, price)
                if let cutoff { history.prune(Self.key(entry.id, price.fuel), before: cutoff) }
            }
        }
        return history
    }

    /// Drops the marks older than `cutoff` except the newest of them (the price in effect at `cutoff`).
    mutating func prune(_ key: UInt64, before cutoff: Int32) {
        guard let track = tracks[key], track.count > 1, track[1].seconds <= cutoff else { return }
        var inEffect = 1
        while inEffect + 1 < track.count, track[inEffect + 1].seconds <= cutoff { inEffect += 1 }
        tracks[key]!.removeFirst(inEffect)
    }
}

extension StationHistory: Codable {
    /// One track: `[station, fuel ordinal, seconds, tenths, seconds, tenths, ...]`, compact and order-preserving.
    public init(from decoder: Decoder) throws {
        var container = try decoder.unkeyedContainer()
        var tracks: [UInt64: [PriceMark]] = [:]
        while !container.isAtEnd {
            let row = try container.decode([Int64].self)
            guard row.count >= 2, row.count % 2 == 0, let station = Int(exactly: row[0]), station > 0,
                let fuel = FuelType.allCases.indices.contains(Int(row[1])) ? FuelType.allCases[Int(row[1])] : nil
            else { throw DecodingError.dataCorrupted(.init(codingPath: container.codingPath, debugDescription: "bad station history row")) }
            tracks[Self.key(StationID(station), fuel)] = stride(from: 2, to: row.count, by: 2).map {
                PriceMark(seconds: Int32(clamping: row[$0]), tenths: Int16(clamping: row[$0 + 1]))
            }
        }
        self.init(tracks: tracks)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.unkeyedContainer()
        for key in tracks.keys.sorted() {
            guard let fuel = Self.fuel(of: key) else { continue }
            var row: [Int64] = [Int64(Self.station(of: key).rawValue), Int64(fuel.ordinal)]
            for mark in tracks[key]!.marks { row += [Int64(mark.seconds), Int64(mark.tenths)] }
            try container.encode(row)
        }
    }
}
