import Foundation

/// Typo'd fleet names (`FleetNeighbours`), looked for once registered and then every five minutes.
extension FleetCoordinator {
    /// Once registered, then every `neighbourInterval` seconds: a whole-etcd key listing is not for every round.
    static let neighbourInterval: Double = 300

    func checkNeighbours(_ view: FleetView) async {
        let now = monotonic()
        guard state.withLock({ $0.registered != nil && now >= $0.nextNeighbourCheck }) else { return }
        state.withLock { $0.nextNeighbourCheck = now + Self.neighbourInterval }
        guard let keys = try? await client.keys(prefix: "/") else { return }
        let members = Set(view.members.keys).union([settings.memberName]).count
        let warnings = FleetNeighbours.warnings(fleet: settings.fleet, keys: keys, ownMembers: members)
        let new = state.withLock { state -> [String] in
            defer { state.status.warnings = warnings }
            return warnings.filter { !state.status.warnings.contains($0) }
        }
        for warning in new { log("fleet: WARNING \(warning)") }
    }
}
