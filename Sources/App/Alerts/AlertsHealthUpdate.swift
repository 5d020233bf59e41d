import API
import AlertStore
import Coordination

/// How the alert services report into the shared `AlertsHealth` (the lead's runtime owns the value).
package typealias AlertsHealthUpdate = @Sendable (_ change: (inout AlertsHealth) -> Void) -> Void

/// Who may decide, and with which fencing token: nil while this member must not.
package typealias AlertLeadership = @Sendable () -> FenceToken?

package enum AlertLeaders {
    /// A single instance is its own evaluator, with a constant token.
    package static let single: AlertLeadership = { FenceToken(generation: 0, revision: 1) }
    /// A follower copies a leader's dataset: it never decides.
    package static let never: AlertLeadership = { nil }

    /// A fleet member decides while it may act, fenced by (fleet generation, leader epoch).
    static func fleet(_ coordinator: FleetCoordinator) -> AlertLeadership {
        { @Sendable in coordinator.fenceToken }
    }
}
