import Foundation
import Testing

/// Long scenarios (real servers, leaders or providers over sockets waiting on real timeouts, exhaustive corruption
/// sweeps) run from `.ci/run` through `Tests/long-scenarios.sh`; the README's `swift test` skips them to stay fast.
extension Trait where Self == ConditionTrait {
    static var longScenario: Self {
        .enabled(if: ProcessInfo.processInfo.environment["PETTY_LONG_SCENARIOS"] == "1", "long scenario: Tests/long-scenarios.sh runs it")
    }
}
