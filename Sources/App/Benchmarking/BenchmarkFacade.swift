import API
import Foundation
import Fuel
import HTTP

/// A small public window onto App internals for `PettyBench` (Benchmarks/Sources/PettyBench), which cannot use
/// `@testable import` in a release build. Nothing here is used by the server itself.
public enum BenchmarkFacade {
    /// The dataset a fresh server seeds from the bundled sample payloads (what `DataBootstrap` does on first boot).
    public static func sampleDataset() throws -> Dataset {
        try bootstrap(dataDirectory: "/nonexistent").seedFromSamples(Dataset())
    }

    /// Writes `dataset` to `path` exactly as the server persists it (`snapshot.bin`, `registry.json`, `history.json`).
    public static func save(_ dataset: Dataset, to path: String) throws {
        try directory(path).save(dataset)
    }

    /// Reads a data directory as the server does at start-up; nil when it holds no snapshot.
    public static func load(from path: String) -> Dataset? {
        let loaded = directory(path).load()
        return loaded.hadSnapshot ? loaded.dataset : nil
    }

    /// The App's per-snapshot render (`RenderedSnapshot.render`: every station's JSON fragment, detail body and
    /// ETag, per-state meta), the work `FuelStore` does after `FuelIndex` when a snapshot is published.
    /// Returns the number of body bytes rendered, so the work cannot be optimised away.
    public static func render(_ dataset: Dataset, index: FuelIndex) -> Int {
        let rendered = RenderedSnapshot.render(SnapshotBasis(dataset: dataset, index: index))
        return rendered.detailBodies.reduce(0) { $0 + $1.count } + rendered.fragments.reduce(0) { $0 + $1.count }
    }

    /// A store that renders exactly as the server's does (with the render memo), publishing `dataset`.
    public static func makeServerStore(_ dataset: Dataset) -> FuelStore<Int> {
        let memo = FragmentCarryOver()
        return FuelStore<Int>(initial: dataset) { basis in
            let rendered = RenderedSnapshot.render(basis, memo: memo)
            return rendered.detailBodies.count
        }
    }

    private static func directory(_ path: String) -> DataDirectory {
        DataDirectory(path: path, logger: quietLogger)
    }

    private static func bootstrap(dataDirectory: String) -> DataBootstrap {
        var config = AppConfiguration()
        config.dataDirectory = dataDirectory
        return DataBootstrap(config: config, logger: quietLogger)
    }

    private static let quietLogger = Logger(label: "bench", level: .critical, sink: .standardError)
}
