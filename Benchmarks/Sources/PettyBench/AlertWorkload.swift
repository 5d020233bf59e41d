import Foundation
import Fuel

/// The alerts of `alert-evaluation` and `alert-rows`: what a million motorists' alerts over the large dataset's
/// 8,000 stations look like, deterministic for a seed. SYNTHETIC, modelled as follows.
///
/// - Devices: 5 alerts each on average (1 to 9). A device's home is a station drawn uniformly from the dataset (so
///   alerts follow the stations, i.e. where people drive: Sydney, Melbourne, Brisbane, Perth weigh most), moved up to
///   about 2 km; its zone is its state's; 20 % keep quiet hours 22:00-07:00 and 10 % of alerts are `daily` at 07:30.
/// - Fuel: one the home station sells: U91 where it can (half the alerts), else the home's others.
/// - Kinds: 35 % `price_below` on 1-5 favourite stations (from the 0.1-degree square around home), the threshold
///   0.0-10.0 c/L under today's price; 15 % `price_drop` and 10 % `price_rise` on favourites (change 1.0-10.0 c/L);
///   15 % `cheapest_changed` near home; 10 % `price_below` near home (threshold 3.0-15.0 c/L under the home price);
///   5 % `price_drop` near home; 10 % `wa_tomorrow` on favourites for WA homes (`price_below` elsewhere).
/// - A `near` radius is one of an app's presets: 2 km (15 %), 5 (40 %), 10 (30 %), 25 (15 %); the centre is the
///   home to full precision, so two alerts share a cheapest question only when they share a device's home.
struct AlertWorkload {
    struct Device {
        var id: Int64
        var zone: String
        var platform: String
    }

    var devices: [Device] = []
    var alerts: [WatchedAlert] = []

    static let zones: [AustralianState: String] = [
        .NSW: "Australia/Sydney", .ACT: "Australia/Sydney", .VIC: "Australia/Melbourne", .QLD: "Australia/Brisbane", .SA: "Australia/Adelaide",
        .TAS: "Australia/Hobart", .WA: "Australia/Perth", .NT: "Australia/Darwin",
    ]

    init(snapshot: Snapshot, alerts count: Int, seed: UInt64) {
        var random = SeededRandom(seed: seed)
        let entries = snapshot.entries
        var squares: [Int64: [Int]] = [:]
        for (slot, entry) in entries.enumerated() { squares[Self.square(entry.station.location), default: []].append(slot) }
        var zoneCache: [String: TimeZone] = [:]
        let quiet = QuietHours(from: TimeOfDay("22:00")!, to: TimeOfDay("07:00")!)
        var nextID: Int64 = 1
        var device: Int64 = 0
        alerts.reserveCapacity(count)
        while alerts.count < count {
            device += 1
            let home = entries[Int(random.next() % UInt64(entries.count))]
            guard !home.prices.isEmpty else { continue }
            let zoneName = Self.zones[home.station.state] ?? "Australia/Sydney"
            let zone = zoneCache[zoneName] ?? TimeZone(identifier: zoneName)!
            zoneCache[zoneName] = zone
            devices.append(Device(id: device, zone: zoneName, platform: random.next() % 2 == 0 ? "ios" : "android"))
            let quietHours = random.next() % 5 == 0 ? quiet : nil
            let point = Coordinate(latitude: home.station.location.latitude + random.uniform(-0.02...0.02),
                                   longitude: home.station.location.longitude + random.uniform(-0.02...0.02))
            let neighbours = squares[Self.square(home.station.location)] ?? []
            for _ in 0..<(1 + Int(random.next() % 9)) where alerts.count < count {
                let homePrice = home.prices.first { $0.fuel == .U91 && random.next() % 2 == 0 } ?? home.prices[Int(random.next() % UInt64(home.prices.count))]
                let fuel = homePrice.fuel
                let favourites = (0..<(1 + Int(random.next() % 5))).map { _ in entries[neighbours[Int(random.next() % UInt64(neighbours.count))]].id }
                let radius = [2.0, 2.0, 2.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 5.0, 10.0, 10.0, 10.0, 10.0, 10.0, 10.0, 25.0, 25.0, 25.0][Int(random.next() % 20)]
                let change = PriceTenths(tenths: 10 + Int(random.next() % 91))
                let roll = random.next() % 100
                var definition: AlertDefinition
                switch roll {
                case 0..<35:
                    definition = AlertDefinition(kind: .priceBelow, fuel: fuel, target: .stations(favourites),
                                                 threshold: PriceTenths(tenths: homePrice.price.tenths - Int(random.next() % 101)))
                case 35..<50: definition = AlertDefinition(kind: .priceDrop, fuel: fuel, target: .stations(favourites), change: change)
                case 50..<60: definition = AlertDefinition(kind: .priceRise, fuel: fuel, target: .stations(favourites), change: change)
                case 60..<75: definition = AlertDefinition(kind: .cheapestChanged, fuel: fuel, target: .near(point, radiusKm: radius), change: change)
                case 75..<85:
                    definition = AlertDefinition(kind: .priceBelow, fuel: fuel, target: .near(point, radiusKm: radius),
                                                 threshold: PriceTenths(tenths: homePrice.price.tenths - 30 - Int(random.next() % 121)))
                case 85..<90: definition = AlertDefinition(kind: .priceDrop, fuel: fuel, target: .near(point, radiusKm: radius), change: change)
                default:
                    definition = home.station.state == .WA
                        ? AlertDefinition(kind: .waTomorrow, fuel: fuel, target: .stations(favourites))
                        : AlertDefinition(kind: .priceBelow, fuel: fuel, target: .stations(favourites), threshold: PriceTenths(tenths: homePrice.price.tenths - 20))
                }
                definition.quietHours = quietHours
                if random.next() % 10 == 0 { definition.delivery = .daily(at: TimeOfDay("07:30")!) }
                alerts.append(WatchedAlert(id: nextID, deviceID: device, definition: definition, zone: zone))
                nextID += 1
            }
        }
    }

    private static func square(_ point: Coordinate) -> Int64 {
        Int64((point.latitude * 10).rounded(.down)) * 10_000 + Int64((point.longitude * 10).rounded(.down))
    }

    /// `count` changed prices drawn uniformly from the snapshot's prices: 70 % small moves (-3.0 to +1.0 c/L, the
    /// day-to-day competition), 30 % a cycle's restoration (+10.0 to +25.0 c/L), each first seen at `at`.
    static func changed(_ snapshot: Snapshot, count: Int, at: Date, seed: UInt64) -> (snapshot: Snapshot, keys: Set<String>) {
        var random = SeededRandom(seed: seed)
        var entries = snapshot.entries
        let pairs = entries.indices.flatMap { slot in entries[slot].prices.indices.map { (slot, $0) } }
        var chosen = Set<Int>()
        while chosen.count < min(count, pairs.count) { chosen.insert(Int(random.next() % UInt64(pairs.count))) }
        var keys = Set<String>()
        for pick in chosen.sorted() {
            let (slot, position) = pairs[pick]
            var price = entries[slot].prices[position]
            let move = random.next() % 10 < 7 ? -30 + Int(random.next() % 41) : 100 + Int(random.next() % 151)
            price = StationPrice(fuel: price.fuel, price: PriceTenths(tenths: price.price.tenths + (move == 0 ? 1 : move)), updatedAt: at,
                                 tomorrow: price.tomorrow, seenAt: at)
            entries[slot].prices[position] = price
            keys.insert("\(entries[slot].id.rawValue).\(price.fuel.rawValue)")
        }
        return (Snapshot(version: snapshot.version + 1, changedAt: at, entries: entries, statuses: snapshot.statuses), keys)
    }
}
