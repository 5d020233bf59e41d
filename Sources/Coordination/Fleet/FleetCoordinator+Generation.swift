import Foundation

/// What survives an etcd rebuilt from nothing: generations, and the leader's guarded resignation.
extension FleetCoordinator {
    /// A new generation when etcd's cluster id changed, or when the pointer and the leader key are both gone
    /// after having been seen: etcd was rebuilt (or the keys deleted), and its revisions, hence epochs, restarted.
    func noteGeneration(_ view: FleetView) {
        let cluster = client.clusterID
        let bumped = state.withLock { state -> String? in
            var why: String?
            if let cluster, let known = state.clusterID, cluster != known { why = "etcd's cluster id changed (\(known) -> \(cluster))" }
            if cluster != nil { state.clusterID = cluster }
            if view.pointer == nil, view.leader == nil, state.sawFleet { why = why ?? "the fleet's keys are gone" }
            if view.pointer != nil || view.leader != nil { state.sawFleet = true }
            guard let why else { return nil }
            state.sawFleet = view.pointer != nil || view.leader != nil
            state.status.generation += 1
            state.lastLeaderEpoch = 0
            state.ownPointer = nil
            return why
        }
        if let bumped { log("fleet: new generation: \(bumped); epochs start afresh") }
    }

    /// Deletes the leader key if its create_revision is still `epoch`; returns whether it did.
    @discardableResult
    func resign(epoch: Int64) async -> Bool {
        let result = try? await client.txn(when: [EtcdCreateRevisionEquals(key: keys.leader, revision: epoch)], then: [], deletes: [keys.leader])
        return result?.succeeded == true
    }
}
