import Foundation
import Fuel

/// Reading stations' fields on the hot path: building the query index (inside Fuel) and writing every field of
/// every station as a body writer does (from another module). Guards `Station`'s layout: its record's fields must
/// read as fast as fields of its own.
///
///   PettyBench station-access [--stations 8000] [--runs 15] [--seed 42]
enum StationAccess {
    static func run(_ options: Options) throws {
        let count = try options.int("stations", default: 8_000)
        let runs = try options.int("runs", default: 15)
        var random = SeededRandom(seed: UInt64(try options.int("seed", default: 42)))
        let snapshot = Snapshot(
            version: 1, changedAt: Date(timeIntervalSince1970: 1_764_000_000),
            entries: (0..<count).map { entry($0, random: &random) }, statuses: [])

        var indexMillis: [Double] = [], writeMillis: [Double] = [], bytes = 0
        for _ in 0..<runs {
            var start = ProcStats.millis()
            let index = FuelIndex(snapshot: snapshot)
            indexMillis.append(ProcStats.millis() - start)
            start = ProcStats.millis()
            bytes = write(index.snapshot.entries).count
            writeMillis.append(ProcStats.millis() - start)
        }
        print("stations \(count), runs \(runs)")
        print("index build  median \(fixed(median(indexMillis), 2)) ms  min \(fixed(indexMillis.min() ?? 0, 2)) ms")
        print("field writes median \(fixed(median(writeMillis), 2)) ms  min \(fixed(writeMillis.min() ?? 0, 2)) ms  (\(bytes) bytes)")
    }

    private static func entry(_ n: Int, random: inout SeededRandom) -> StationEntry {
        let brands = ["Ampol", "BP", "Shell", "United", "7-Eleven", "Puma Energy", "Liberty", "OTR"]
        let brand = brands[Int(random.next() % UInt64(brands.count))]
        let station = Station(
            id: StationID(n + 1), key: StationKey(provider: .nsw, sourceID: "bench-\(n + 1)"),
            name: "\(brand) Town \(n % 300) \(n + 1)", brand: brand, address: "\(1 + random.next() % 400) Main Road",
            suburb: "Town \(n % 300)", state: .NSW, postcode: String(2000 + n % 800),
            location: Coordinate(latitude: random.uniform(-37...(-28)), longitude: random.uniform(141...153)))
        let price = StationPrice(
            fuel: .U91, price: PriceTenths(tenths: 1_700 + Int(random.next() % 400)),
            updatedAt: Date(timeIntervalSince1970: 1_763_990_000))
        return StationEntry(station: station, prices: [price])
    }

    /// Every field of every station, as text, the way a body writer reads them.
    private static func write(_ entries: [StationEntry]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * 160)
        for entry in entries {
            let station = entry.station
            out.append(contentsOf: String(station.id.rawValue).utf8)
            for text in [station.sourceID, station.name, station.brand, station.address, station.suburb, station.state.rawValue] {
                out.append(contentsOf: text.utf8)
            }
            if let postcode = station.postcode { out.append(contentsOf: postcode.utf8) }
            out.append(contentsOf: String(station.location.latitude).utf8)
            out.append(contentsOf: String(station.location.longitude).utf8)
            if station.access != nil { out.append(1) }
        }
        return out
    }
}
