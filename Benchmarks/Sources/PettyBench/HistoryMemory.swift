import App
import Foundation
import Fuel

/// `history-memory`: what 90 days of every station's price changes cost in RSS. Builds the history the way the
/// server does, one day's merge at a time while the previous day's value is still held (the published view), with
/// `--changes-per-day` changes per station and fuel (the sample VIC panel's own rate is printed for comparison).
/// SYNTHETIC: generated stations and prices; only the layout and the growth pattern are the server's.
enum HistoryMemory {
    static func run(_ options: Options) throws {
        let stations = try options.int("stations", default: 8_000)
        let prices = try options.int("prices", default: 30_000)
        let days = try options.int("days", default: 90)
        let perDay = try options.int("changes-per-day", default: 1)
        var random = SeededRandom(seed: UInt64(try options.int("seed", default: 42)))
        let fuels: [FuelType] = [.U91, .DL, .E10, .P98, .P95, .PDL, .LPG]
        // Spread the price target over the stations: every station sells U91, then the next fuels in turn.
        let tracks: [(StationID, FuelType, Int)] = (0..<stations).flatMap { station in
            let count = min(fuels.count, max(1, prices / stations + (station < prices % stations ? 1 : 0)))
            return fuels.prefix(count).map { (StationID(station + 1), $0, 1_700 + Int(random.next() % 400)) }
        }
        let start = Date(timeIntervalSince1970: 1_767_225_600)  // 2026-01-01T00:00:00Z
        let before = ProcStats.statusKB("VmRSS")
        var history = StationHistory()
        for day in 0..<days {
            let previous = history
            for change in 0..<perDay {
                let at = start.addingTimeInterval(Double(day) * 86_400 + Double(change + 1) * 86_400 / Double(perDay + 1))
                for (id, fuel, base) in tracks {
                    let tenths = base + Int(random.next() % 60) - 30
                    history.record(id, StationPrice(fuel: fuel, price: PriceTenths(tenths: tenths), updatedAt: at))
                }
            }
            withExtendedLifetime(previous) {}
        }
        let after = ProcStats.statusKB("VmRSS")
        let allocated = history.tracks.values.reduce(0) { $0 + $1.allocatedBytes }
        let marks = history.markCount
        // station-history.bin's layout: 12-byte header, 12 bytes a track, 6 a change.
        let encoded = 12 + history.tracks.count * 12 + marks * 6
        print("  \(history.tracks.count) station+fuel tracks, \(marks) changes in \(allocated / 1024) KB of track buffers, \(encoded / 1024) KB on disk (station-history.bin)")
        print("history-memory: +\(fixed(Double(after - before) / 1024)) MB RSS for \(stations) stations x \(days) days (\(marks) changes)")
        withExtendedLifetime(history) {}
        try printSampleRate()
    }

    /// Changes per station, fuel and day in the recorded VIC panel (tracks with more than one mark), for judging
    /// `--changes-per-day`.
    static func printSampleRate() throws {
        let dataset = try BenchmarkFacade.sampleDataset()
        var changes = 0, spanDays = 0.0
        for entry in dataset.snapshot.entries where entry.station.state == .VIC {
            for price in entry.prices {
                let marks = dataset.stationHistory.marks(entry.id, price.fuel)
                guard marks.count > 1 else { continue }
                changes += marks.count - 1
                spanDays += marks.last!.at.timeIntervalSince(marks.first!.at) / 86_400
            }
        }
        print("  sample VIC panel: \(changes) changes over \(Int(spanDays)) station-fuel-days = \(fixed(Double(changes) / max(spanDays, 1), 2)) changes per station, fuel and day")
    }
}
