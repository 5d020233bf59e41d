// PettyBench: in-process measurements for Benchmarks/bench.sh (never run by `swift test` or CI).
//
//   PettyBench make-large-dataset --out DIR [--stations 8000] [--prices 30000] [--days 90] [--seed 42]
//   PettyBench merge-nsw [--payload FILE] [--runs 5] [--base sample|DIR]
//   PettyBench history-memory [--stations 8000] [--prices 30000] [--days 90] [--changes-per-day 1] [--seed 42]
//   PettyBench station-access [--stations 8000] [--runs 15] [--seed 42]
//   PettyBench along-search --urls FILE [--runs 15]
//   PettyBench respond --urls FILE --data-dir DIR [--runs 9]
//   PettyBench worst --data-dir DIR [--runs 15] [--only ENDPOINT]
//   PettyBench alert-evaluation --data-dir DIR [--alerts 1000000] [--changes 2000] [--runs 9] [--seed 42]
//   PettyBench alert-rows --data-dir DIR --out DIR [--alerts 1000000] [--seed 42]
//   PettyBench fake-relay
//
// Build with `swift build -c release --product PettyBench`; timings from a debug build mean nothing.
import Foundation

#if canImport(Glibc)
import Glibc
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "make-large-dataset":
        try LargeDataset.run(Options(arguments.dropFirst()))
    case "merge-nsw":
        try MergeNSW.run(Options(arguments.dropFirst()))
    case "history-memory":
        try HistoryMemory.run(Options(arguments.dropFirst()))
    case "station-access":
        try StationAccess.run(Options(arguments.dropFirst()))
    case "along-search":
        try AlongSearch.run(Options(arguments.dropFirst()))
    case "respond":
        try Respond.run(Options(arguments.dropFirst()))
    case "worst":
        try WorstCase.run(Options(arguments.dropFirst()))
    case "alert-evaluation":
        try AlertEvaluation.run(Options(arguments.dropFirst()))
    case "alert-rows":
        try AlertRows.run(Options(arguments.dropFirst()))
    case "fake-relay":
        try FakeRelayProcess.run(Options(arguments.dropFirst()))
    default:
        FileHandle.standardError.write(Data("""
            usage: PettyBench make-large-dataset --out DIR [--stations 8000] [--prices 30000] [--days 90] [--seed 42]
                   PettyBench merge-nsw [--payload FILE] [--runs 5] [--base sample|DIR]
                   PettyBench history-memory [--stations 8000] [--prices 30000] [--days 90] [--changes-per-day 1] [--seed 42]
                   PettyBench station-access [--stations 8000] [--runs 15] [--seed 42]
                   PettyBench along-search --urls FILE [--runs 15]
                   PettyBench respond --urls FILE --data-dir DIR [--runs 9]
                   PettyBench worst --data-dir DIR [--runs 15] [--only ENDPOINT]
                   PettyBench alert-evaluation --data-dir DIR [--alerts 1000000] [--changes 2000] [--runs 9] [--seed 42]
                   PettyBench alert-rows --data-dir DIR --out DIR [--alerts 1000000] [--seed 42]
                   PettyBench fake-relay

            """.utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("PettyBench: \(error)\n".utf8))
    exit(1)
}
