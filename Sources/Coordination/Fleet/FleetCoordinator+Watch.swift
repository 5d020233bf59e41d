import Foundation

/// The fleet's small keys (leader, pointer, ids) on one `/v3/watch` stream held open across rounds: a publication
/// reaches the member as an event, and the round after takes the keys from the watch instead of reading them.
extension FleetCoordinator {
    /// At idle, waits on the watch of the keys before `members/` until the safety net's read is due instead of
    /// reading them again each `interval`. The stream stays open across waits, so a publication reaches the member
    /// as an event on it (no request) and the next round takes the keys from it; a quiet fleet costs each member one
    /// read per `safetyNetLeases` leases besides its streamed keep-alives and the watch. A leaderless fleet, a new
    /// generation or a failed watch polls every `interval` instead (false). The wait ends early when this member has
    /// something to write (a newer dataset to publish or register) or its lease or role changed. The watch asks etcd
    /// to end it when its member loses the cluster's leader (such a member hears of no change): it is opened again
    /// from the revision after its last event, and failing that the rounds read (failing over to a member that
    /// has a leader) until it opens. A watch that cannot go on from its revision (compacted, etcd rebuilt) has the
    /// next round read the whole fleet, and the watch starts again after that read.
    func awaitChange() async -> Bool {
        let (mayWait, lease, role, readDue) = state.withLock { ($0.mayWait, $0.election.lease, $0.election.role, $0.nextMembersRead) }
        guard mayWait, let lease, interval > 0 else { return false }
        let outcome = await watch.next(upTo: max(interval, readDue - monotonic())) { [self] in
            let (now, registered) = state.withLock { ($0.election.lease, $0.registered) }
            if now != lease || state.withLock({ $0.election.role }) != role { return true }
            return currentRecord() != registered
        }
        let now = monotonic()
        switch outcome {
        case .failed(let why):
            if state.withLock({ $0.lastWatchFailure != why }) { log("fleet: watching etcd failed (\(why)); reading every \(interval) s") }
            state.withLock { state in
                state.lastWatchFailure = why
                state.watchHealthy = false
                state.nextMembersRead = min(state.nextMembersRead, now + Double(settings.leaseSeconds))
            }
            return false
        case .lost(let why):
            log("fleet: the watch cannot go on (\(why)); reading the whole fleet again")
            state.withLock { $0.nextMembersRead = now }
            return true
        case .events(let events):
            state.withLock { state in
                state.apply(events)
                state.lastWatchFailure = nil
                state.watchHealthy = true
                state.watchCurrent = true
            }
            return true
        case .quiet, .woken:
            state.withLock { state in
                state.lastWatchFailure = nil
                state.watchHealthy = true
                state.watchCurrent = true
            }
            return true
        }
    }
}

extension FleetCoordinator.State {
    /// Applies watch events to the watched keys: an event at or before the read they came from is already in it, and
    /// a key already newer than an event keeps its value.
    mutating func apply(_ events: [EtcdWatchEvent]) {
        for event in events where event.kv.modRevision > watchedRevision {
            if let held = watched.firstIndex(where: { $0.key == event.kv.key }) {
                guard watched[held].modRevision < event.kv.modRevision else { continue }
                watched.remove(at: held)
            }
            if !event.deleted { watched.append(event.kv) }
        }
        watched.sort { $0.key < $1.key }
    }
}
