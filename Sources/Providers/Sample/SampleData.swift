import Fuel
import Foundation

/// The bundled sample payloads (`Sources/Providers/SampleData/`), already adapted: the demo data set that lets the
/// server run offline without credentials, and the seed for 30+ days of trend history.
public struct SampleBundle: Sendable {
    /// The latest update of each provider: NSW (with ACT), WA (with tomorrow's prices), QLD, SA, VIC.
    public var current: [ProviderUpdate]
    /// Older dated updates, oldest first (VIC daily payloads, WA's earlier days), for seeding trend history.
    /// Tomorrow records are stripped: they never feed trends.
    public var history: [ProviderUpdate]
}

public enum SampleDataError: Error, Sendable, CustomStringConvertible {
    case missingResource(String)
    case unreadable(path: String, reason: String)
    case adapter(AdapterError)

    public var description: String {
        switch self {
        case .missingResource(let name): "sample data: missing bundled resource \(name)"
        case .unreadable(let path, let reason): "sample data: cannot read \(path): \(reason)"
        case .adapter(let error): "sample data: \(error)"
        }
    }
}

public enum SampleData {
    /// Reads and adapts every bundled payload. Independent files are adapted in parallel.
    public static func load() throws(SampleDataError) -> SampleBundle {
        guard let root = Bundle.module.url(forResource: "SampleData", withExtension: nil) else {
            throw .missingResource("SampleData")
        }
        return try load(from: root)
    }

    static func load(from root: URL) throws(SampleDataError) -> SampleBundle {
        let files = try SampleFiles(root: root)
        let jobs = try files.jobs()
        let results = ParallelResults<SampleJob.Output>(count: jobs.count)
        DispatchQueue.concurrentPerform(iterations: jobs.count) { index in
            results.set(index, Result { () throws(SampleDataError) in try jobs[index].run() })
        }
        var current: [ProviderUpdate] = []
        var history: [ProviderUpdate] = []
        for result in results.values {
            switch try result.get() {
            case .current(let update): current.append(update)
            case .history(let update): history.append(update)
            }
        }
        current.sort { $0.provider < $1.provider }
        history.sort { ($0.asOf, $0.provider) < ($1.asOf, $1.provider) }
        return SampleBundle(current: current, history: history)
    }
}

/// Collects one result per slot from concurrent workers.
// @unchecked: `slots` is only touched under `lock`.
private final class ParallelResults<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [Result<Value, SampleDataError>?]

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func set(_ index: Int, _ result: Result<Value, SampleDataError>) {
        lock.lock()
        slots[index] = result
        lock.unlock()
    }

    var values: [Result<Value, SampleDataError>] {
        lock.lock()
        defer { lock.unlock() }
        return slots.map { $0 ?? .failure(.missingResource("unfinished job")) }
    }
}

extension SampleData {
    /// Perth's metro ULP (our U91) daily averages as FuelWatch reported them, from the bundled price-trends
    /// reports (a later report's day wins), oldest first.
    public static func perthMetroReport() throws(SampleDataError) -> [DailyPoint] {
        guard let root = Bundle.module.url(forResource: "SampleData", withExtension: nil) else {
            throw .missingResource("SampleData")
        }
        let folder = root.appendingPathComponent("wa")
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasPrefix("wa_api_report_price-trends_Metro_ULP_") }.sorted()
        var byDay: [String: DailyPoint] = [:]
        for name in names {
            guard let data = try? Data(contentsOf: folder.appendingPathComponent(name)) else { continue }
            do {
                for point in try FuelWatchPriceTrendsAdapter.adapt(data) { byDay[point.day] = point }
            } catch {
                throw .adapter(error)
            }
        }
        return byDay.values.sorted { $0.day < $1.day }
    }
}
