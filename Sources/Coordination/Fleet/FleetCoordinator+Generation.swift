import Foundation

/// What survives an etcd rebuilt from nothing: generations, and the leader's guarded resignation.
extension FleetCoordinator {
    /// Orders the fleet's generation, persisted with the member's data before anything acts on it. etcd rebuilt
    /// (its cluster id is not the one the generation was recorded in, or the pointer and the leader key are both
    /// gone after having been seen) starts a new generation, above the member's own and every one the fleet's
    /// records name, unless a member already started one in this cluster (a record names a higher generation):
    /// that one is adopted, as any higher generation read from the pointer, the leader or a member record is.
    /// Returns false when a new generation could not be persisted: the round then neither campaigns nor publishes.
    func noteGeneration(_ view: FleetView) -> Bool {
        let cluster = client.clusterID
        let keysPresent = view.pointer != nil || view.leader != nil
        let (current, sawFleet) = state.withLock { ($0.generation, $0.sawFleet) }
        let seen = view.generation
        var next = current
        var why: String?
        var rebuilt: String?
        if let cluster, let known = current.clusterID, cluster != known {
            rebuilt = "etcd's cluster id changed (\(known) -> \(cluster))"
        } else if !keysPresent, sawFleet {
            rebuilt = "the fleet's keys are gone"
        }
        if let adopted = current.plausible(seen), adopted > current.number {
            next.number = adopted
            why = (rebuilt.map { "\($0); " } ?? "") + "generation \(adopted) is in the fleet's records"
        } else if let rebuilt {
            next.number = current.bumped(seen: seen)
            why = rebuilt
        } else if seen > current.number {
            warnOnce("fleet: WARNING the fleet's records name generation \(seen), more than \(FleetGeneration.maximumLeap) above this member's \(current.number): ignored")
        }
        if let cluster { next.clusterID = cluster }
        guard next != current else {
            if keysPresent { state.withLock { $0.sawFleet = true } }
            return true
        }
        guard member.persist(next) else {
            log("fleet: ERROR cannot persist generation \(next.number) in the data directory; not campaigning or publishing until it is")
            return false
        }
        state.withLock { state in
            state.generation = next
            state.status.generation = next.number
            state.sawFleet = keysPresent
            if next.number != current.number {
                state.lastLeaderEpoch = 0
                state.ownPointer = nil
            }
        }
        if let why, next.number != current.number { log("fleet: generation \(current.number) -> \(next.number): \(why); epochs start afresh") }
        return true
    }

    /// Deletes the leader key if its create_revision is still `epoch`; returns whether it did.
    @discardableResult
    func resign(epoch: Int64) async -> Bool {
        let result = try? await client.txn(when: [EtcdCreateRevisionEquals(key: keys.leader, revision: epoch)], then: [], deletes: [keys.leader])
        return result?.succeeded == true
    }

    private func warnOnce(_ line: String) {
        let first = state.withLock { state -> Bool in
            defer { state.lastGenerationWarning = line }
            return state.lastGenerationWarning != line
        }
        if first { log(line) }
    }
}
