import App
import Foundation
import Fuel

/// `alert-rows --data-dir DIR --out DIR [--alerts 1000000] [--seed 42]`: `AlertWorkload`'s devices and alerts as
/// CSV for PostgreSQL's COPY (`devices.csv`, `alerts.csv`, columns as `Benchmarks/helpers/alert_bench.py` names
/// them), so the `alert-load` row stores the same alerts `alert-evaluation` holds in memory.
enum AlertRows {
    static func run(_ options: Options) throws {
        guard let directory = options.string("data-dir"), let out = options.string("out") else { throw BenchError("alert-rows needs --data-dir DIR --out DIR") }
        guard let dataset = BenchmarkFacade.load(from: directory) else { throw BenchError("no snapshot in \(directory)") }
        let workload = AlertWorkload(snapshot: dataset.snapshot, alerts: try options.int("alerts", default: 1_000_000),
                                     seed: UInt64(try options.int("seed", default: 42)))
        let hash = String(repeating: "00", count: 32)
        var devices = ""
        for device in workload.devices {
            devices += "\(device.id),\(device.platform),bench-token-\(device.id),\(device.zone),\\x\(hash)\n"
        }
        try Data(devices.utf8).write(to: URL(fileURLWithPath: out + "/devices.csv"))
        var alerts = ""
        alerts.reserveCapacity(workload.alerts.count * 90)
        for alert in workload.alerts {
            let definition = alert.definition
            var fields = ["\(alert.id)", "\(alert.deviceID)", definition.kind.rawValue, definition.fuel.rawValue]
            switch definition.target {
            case .stations(let ids): fields += ["\"{\(ids.map { String($0.rawValue) }.joined(separator: ","))}\"", "", "", ""]
            case .near(let point, let radius): fields += ["", "\(point.latitude)", "\(point.longitude)", "\(radius)"]
            }
            fields += [definition.threshold.map { "\($0.tenths)" } ?? "", definition.change.map { "\($0.tenths)" } ?? ""]
            switch definition.delivery {
            case .immediate: fields += ["immediate", ""]
            case .daily(let at): fields += ["daily", "\(at.minutes)"]
            }
            fields += [definition.quietHours.map { "\($0.from.minutes)" } ?? "", definition.quietHours.map { "\($0.to.minutes)" } ?? ""]
            alerts += fields.joined(separator: ",") + "\n"
        }
        try Data(alerts.utf8).write(to: URL(fileURLWithPath: out + "/alerts.csv"))
        print("alert-rows: \(workload.devices.count) devices, \(workload.alerts.count) alerts written to \(out)")
    }
}
