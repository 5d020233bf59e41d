import Foundation
import Synchronization
import Clocks

/// Runs one member's side of the fleet against etcd: a lease kept alive every third of its TTL, the member
/// record under it, a campaign when the leader key is absent and the member may lead (`CampaignRule`), the
/// epoch-guarded publication of each new dataset while leading, and the fleet's small keys (the pointer
/// followers copy from, the leader key) watched on one stream held open across rounds (FleetCoordinator+Watch.swift),
/// with a read of the whole fleet as a safety net. Every decision about leading is `Election`'s; this type only
/// does the I/O.
///
/// `mayAct()` is the gate the member's pollers check; `tick()` may be called as often as wanted (a watchdog)
/// so a passed deadline stops the leader even while an etcd call hangs.
public final class FleetCoordinator: Sendable {
    public let settings: FleetSettings
    public let keys: FleetKeys
    let client: EtcdClient
    /// The keys before `members/`, watched on one stream held open across rounds.
    let watch: EtcdWatchStream
    let member: any FleetMember
    let monotonic: @Sendable () -> Double
    let wall: @Sendable () -> Date
    let log: @Sendable (String) -> Void
    /// How often the fleet is read (followers see a new pointer within this).
    let interval: Double
    /// In an empty fleet (no pointer, no leader: new, or etcd rebuilt from nothing) a member campaigns only after
    /// it has been registered this long (default a lease), so every member's record, version and live flag is
    /// there to be compared and only the member with the newest live data leads.
    let emptyFleetWait: Double
    let state: Mutex<State>

    struct State {
        var election = Election()
        var status = FleetStatus()
        var nextKeepAlive: Double = 0
        var registered: MemberRecord?
        /// When this member's record was first written under the current lease.
        var registeredAt: Double?
        /// A lease we gave up while etcd may still hold it (so the leader key it carries is deleted at once).
        var leaseToRevoke: Int64?
        var lastLeaderEpoch: Int64 = 0
        /// The pointer this member last published while leading: any other pointer read while leading was written
        /// by someone else and is rewritten.
        var ownPointer: DatasetPointer?
        /// When the etcd's other fleets are looked at next (`FleetNeighbours`).
        var nextNeighbourCheck: Double = 0
        /// The fleet generation and the etcd cluster it was recorded in, as persisted with the member's data.
        var generation = FleetGeneration()
        var lastGenerationWarning: String?
        /// The member records as last read, the leader epoch they were read under, and when they are read again.
        var memberKVs: [EtcdKeyValue] = []
        var membersEpoch: Int64 = 0
        var nextMembersRead: Double = 0
        /// Whether the fleet's keys were seen (a pointer or a leader) since the generation began.
        var sawFleet = false
        /// Whether the last round found a fleet at rest enough to wait on a watch (a leader, the generation held).
        var mayWait = false
        var lastWatchFailure: String?
        /// The keys before `members/` as the last read found them at `watchedRevision`, with every watch event after it
        /// applied; `watchCurrent`: the last wait read the watch up to now, so the next round need not read them.
        var watched: [EtcdKeyValue] = []
        var watchedRevision: Int64 = 0
        var watchCurrent = false
        /// Whether the last watch ended as a watch does (a change, a quiet wait, a wake), not with a failure.
        var watchHealthy = false
        /// Whether an etcd call failed since the round began (a write to retry soon).
        var failedInRound = false
    }

    /// While the watch is healthy, the whole fleet (member records included) is read once every this many leases:
    /// the safety net against a change the watch missed. Otherwise once a lease.
    static let safetyNetLeases: Double = 6

    public init(
        settings: FleetSettings, member: any FleetMember, client: EtcdClient? = nil, interval: Double = 0.5, emptyFleetWait: Double? = nil,
        monotonic: @escaping @Sendable () -> Double = { MonotonicClock.seconds() },
        wall: @escaping @Sendable () -> Date = { Date() }, log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.settings = settings
        keys = FleetKeys(fleet: settings.fleet)
        self.client = client ?? EtcdClient(endpoints: settings.endpoints, credentials: settings.credentials, timeout: settings.requestTimeout)
        watch = EtcdWatchStream(client: self.client, from: keys.root, to: keys.membersPrefix)
        self.member = member
        self.interval = interval
        self.emptyFleetWait = emptyFleetWait ?? Double(settings.leaseSeconds)
        self.monotonic = monotonic
        self.wall = wall
        self.log = log
        var initial = State()
        initial.generation = member.generation
        initial.status.generation = initial.generation.number
        state = Mutex(initial)
    }

    /// The fencing token while this member may act as leader, nil otherwise: what it writes elsewhere (the alerts'
    /// outbox) carries it, and a store that has seen a higher token refuses the write.
    public var fenceToken: FleetFenceToken? {
        let now = monotonic()
        return state.withLock { state in
            state.election.mayAct(at: now) ? FleetFenceToken(generation: state.generation.number, revision: state.election.epoch) : nil
        }
    }

    public var status: FleetStatus {
        let now = monotonic()
        return state.withLock { state in
            var status = state.status
            status.role = state.election.mayAct(at: now) ? .leader : .follower
            status.leaseSecondsLeft = state.election.secondsLeft(at: now)
            return status
        }
    }

    /// Whether this member may poll providers and publish right now.
    public func mayAct() -> Bool {
        let now = monotonic()
        return state.withLock { $0.election.mayAct(at: now) }
    }

    /// Applies the clock: a leader past its deadline steps down here.
    public func tick() {
        let now = monotonic()
        let change = state.withLock { state in state.election.tick(at: now) }
        handle(change)
    }

    /// Renews and reads until cancelled; then gives the lease back so another member leads at once. Renewal has
    /// its own loop, so a slow read or publication never holds back a keep-alive.
    public func run() async {
        log("fleet: member \(settings.memberName) of '\(settings.fleet)' on \(settings.endpoints.map(\.absoluteString).joined(separator: ",")), lease \(settings.leaseSeconds)s")
        await withDiscardingTaskGroup { group in
            group.addTask {
                while !Task.isCancelled {
                    self.tick()
                    await self.revokeAbandonedLease()
                    // A keep-alive is sent only when due; without etcd, try again every second.
                    let held = await self.holdLease()
                    try? await Task.sleep(nanoseconds: held ? 100_000_000 : 1_000_000_000)
                }
            }
            group.addTask {
                while !Task.isCancelled {
                    var revision: Int64?
                    if self.state.withLock({ $0.election.lease != nil }) { revision = await self.round() }
                    if revision != nil, await self.awaitChange() { continue }
                    try? await Task.sleep(nanoseconds: UInt64(self.interval * 1e9))
                }
            }
        }
        let (lease, leadingEpoch) = state.withLock { state -> (Int64?, Int64?) in
            let lease = state.election.lease ?? state.leaseToRevoke
            let epoch = state.election.role == .leader ? state.election.epoch : nil
            _ = state.election.dropLease()
            return (lease, epoch)
        }
        // Resign as etcd's own `Resign` does: delete the leader key only while it is still ours, so a member that
        // already leads in our place is never deposed by our shutdown; the revoke then takes the rest.
        if let leadingEpoch { await resign(epoch: leadingEpoch) }
        if let lease { try? await client.revoke(lease) }
        watch.close()
    }

    /// One round as the tests drive it: renew or obtain the lease, then `round()`.
    public func cycle() async {
        tick()
        await revokeAbandonedLease()
        guard await holdLease() else { return }
        await round()
    }

    /// Reads the fleet, then campaigns, publishes or registers as due; the revision read at, nil when etcd failed.
    /// The keys before `members/` (leader, pointer, ids: a few hundred bytes whatever the fleet's size) come from the
    /// watch when the wait before this round read it up to now, and are read otherwise (the watch then follows that
    /// read). The member records, which grow with the fleet, are read with them when the safety net is due (once
    /// every `safetyNetLeases` leases while the watch is healthy, else once a lease), and on their own when the
    /// leader key is absent (a campaign compares them) or names a new leader (its advertised URL is where followers
    /// may copy from), so a fleet's read volume grows with its size, not with its square.
    @discardableResult
    func round() async -> Int64? {
        var kvs: [EtcdKeyValue]
        let revision: Int64
        let started = monotonic()
        let (membersDue, watched) = state.withLock { state -> (Bool, (kvs: [EtcdKeyValue], revision: Int64)?) in
            defer {
                state.failedInRound = false
                state.watchCurrent = false
            }
            let due = started >= state.nextMembersRead
            return (due, state.watchCurrent && !due ? (state.watched, state.watchedRevision) : nil)
        }
        if let watched {
            (kvs, revision) = watched
        } else {
            do {
                (kvs, revision) = try await membersDue ? client.read(prefix: keys.root) : client.read(from: keys.root, to: keys.membersPrefix)
            } catch {
                etcdFailed(error)
                return nil
            }
            let read = kvs.filter { $0.key < keys.membersPrefix }
            state.withLock { state in
                state.watched = read
                state.watchedRevision = revision
            }
            watch.follow(after: revision)
        }
        let now = monotonic()
        let leaderEpoch = kvs.first { $0.key == keys.leader }?.createRevision ?? 0
        if membersDue {
            let members = kvs.filter { $0.key.hasPrefix(keys.membersPrefix) }
            kvs.removeAll { $0.key >= keys.membersPrefix }
            noteMembers(members, epoch: leaderEpoch, at: now)
        } else if leaderEpoch == 0 || leaderEpoch != state.withLock({ $0.membersEpoch }) {
            do {
                noteMembers(try await client.range(prefix: keys.membersPrefix), epoch: leaderEpoch, at: now)
            } catch {
                etcdFailed(error)
                return nil
            }
        }
        kvs += state.withLock { $0.memberKVs }
        etcdOK()
        let view = FleetView(kvs, keys: keys)
        let generationHeld = noteGeneration(view)
        member.adopt(idMark: view.idMark)
        observe(view)
        if generationHeld {
            await campaignIfDue(view)
            await publishIfDue(view)
        }
        await register()
        await checkNeighbours(view)
        state.withLock { $0.mayWait = generationHeld && view.leader != nil && !$0.failedInRound }
        return revision
    }

    private func noteMembers(_ members: [EtcdKeyValue], epoch: Int64, at now: Double) {
        state.withLock { state in
            state.memberKVs = members
            state.membersEpoch = epoch
            state.nextMembersRead = now + Double(settings.leaseSeconds) * (state.watchHealthy ? Self.safetyNetLeases : 1)
        }
    }

    // MARK: - Lease

    private func holdLease() async -> Bool {
        let (lease, due) = state.withLock { ($0.election.lease, $0.nextKeepAlive) }
        let sentAt = monotonic()
        guard let lease else {
            do {
                let granted = try await client.grant(ttl: settings.leaseSeconds)
                state.withLock { state in
                    state.election.granted(lease: granted.id, ttl: granted.ttl, sentAt: sentAt)
                    state.nextKeepAlive = sentAt + Double(granted.ttl) / 3
                    state.registered = nil
                    state.registeredAt = nil
                }
                etcdOK()
                return true
            } catch {
                etcdFailed(error)
                return false
            }
        }
        guard sentAt >= due else { return true }
        do {
            let ttl = try await client.keepAlive(lease)
            let change = state.withLock { state -> Election.Change? in
                guard state.election.lease == lease else { return nil }
                state.nextKeepAlive = sentAt + Double(max(ttl, 1)) / 3
                return state.election.renewed(ttl: ttl, sentAt: sentAt)
            }
            if ttl <= 0 { log("fleet: lease \(String(lease, radix: 16)) expired; starting a new session") }
            handle(change)
            etcdOK()
            return ttl > 0
        } catch {
            state.withLock { $0.status.renewalsFailed += 1 }
            etcdFailed(error)
            // Without a renewal the deadline decides; the lease may still be held until then.
            return state.withLock { $0.election.lease != nil }
        }
    }

    private func revokeAbandonedLease() async {
        guard let lease = state.withLock({ $0.leaseToRevoke }) else { return }
        do {
            try await client.revoke(lease)
            state.withLock { if $0.leaseToRevoke == lease { $0.leaseToRevoke = nil } }
        } catch {
            // Not found: etcd already let it expire.
            if case .server = error { state.withLock { if $0.leaseToRevoke == lease { $0.leaseToRevoke = nil } } }
        }
    }

    // MARK: - Election

    private func observe(_ view: FleetView) {
        let wallNow = wall()
        let change = state.withLock { state -> Election.Change? in
            let epoch = view.leader?.epoch ?? 0
            if epoch != 0, epoch != state.lastLeaderEpoch {
                state.status.leaderChanges += 1
                state.status.lastElection = wallNow
                state.lastLeaderEpoch = epoch
            }
            state.status.epoch = epoch == 0 ? state.status.epoch : epoch
            state.status.leaderName = view.leader?.record?.name
            state.status.leaderURL = view.leader?.record?.url
            // Only a pointer that changed while watched was published just now; one found at start may be hours old.
            if let pointer = view.pointer, let previous = state.status.published, pointer != previous,
               pointer.epoch != state.election.epoch || state.election.role != .leader, let stamped = pointer.publishedInstant {
                state.status.clockSkew = stamped.timeIntervalSince(wallNow)
            }
            state.status.published = view.pointer
            state.status.memberURLs = view.members.values.map(\.url).sorted()
            // Our lease still carries a leader key while we do not lead (we stepped down and etcd kept the lease).
            if state.election.role == .follower, let lease = state.election.lease, view.leader?.lease == lease {
                state.leaseToRevoke = lease
                _ = state.election.dropLease()
                return nil
            }
            return state.election.observed(leaderEpoch: view.leader?.epoch)
        }
        handle(change)
    }

    private func campaignIfDue(_ view: FleetView) async {
        guard view.leader == nil else {
            state.withLock { $0.status.waiting = nil }
            return
        }
        let held = member.heldVersion
        let now = monotonic()
        if view.pointer == nil, emptyFleetWait > 0 {
            let registeredAt = state.withLock { $0.registeredAt }
            guard let registeredAt, now - registeredAt >= emptyFleetWait else {
                state.withLock { $0.status.waiting = "not campaigning yet: an empty fleet waits \(Int(emptyFleetWait)) s for every member to register" }
                return
            }
        }
        let publisherRegistered = view.pointer.map {
            CampaignRule.publisherRegistered(pointerURL: $0.url, memberURLs: view.members.values.map(\.url))
        } ?? false
        let others = view.members.filter { $0.key != settings.memberName }.values
        // A member with live data is compared with the others holding live data (or not saying): a higher version
        // of samples does not outrank it.
        let rivals = view.members.values.filter { !member.holdsLiveData || $0.live != false }.map(\.version)
        guard CampaignRule.mayCampaign(
            holding: held, holdsLive: member.holdsLiveData, published: view.pointer?.version, publishedLive: view.pointer?.live == true,
            publisherRegistered: publisherRegistered, members: rivals,
            liveMembers: others.contains { $0.live == true })
        else {
            if !member.holdsLiveData, view.pointer?.live == true || others.contains(where: { $0.live == true }) {
                state.withLock { $0.status.waiting = "not campaigning: holds only sample data while the fleet has held live data" }
                return
            }
            let behind = view.pointer.map { publisherRegistered ? "v\($0.version) is published" : "a member holds a newer version (the publisher of v\($0.version) is gone)" } ?? "a member holds a newer version"
            state.withLock { $0.status.waiting = "not campaigning: holds v\(held) while \(behind)" }
            return
        }
        guard let lease = state.withLock({ $0.election.role == .follower ? $0.election.lease : nil }) else { return }
        let record = LeaderRecord(name: settings.memberName, url: settings.advertiseURL.absoluteString, generation: state.withLock { $0.generation.number })
        do {
            let result = try await client.txn(
                when: [EtcdCreateRevisionEquals(key: keys.leader, revision: 0)],
                then: [EtcdPut(key: keys.leader, value: FleetJSON.encode(record), lease: lease)])
            guard result.succeeded else { return }
            let now = monotonic()
            let wallNow = wall()
            let change = state.withLock { state -> Election.Change? in
                let change = state.election.won(epoch: result.revision, at: now)
                if change != nil {
                    state.lastLeaderEpoch = result.revision
                    state.status.leaderChanges += 1
                    state.status.lastElection = wallNow
                    state.status.epoch = result.revision
                    state.status.leaderName = record.name
                    state.status.leaderURL = record.url
                    state.status.waiting = nil
                }
                return change
            }
            if change == nil { state.withLock { $0.leaseToRevoke = lease } }  // won too late: give the key back
            handle(change)
            // The mark left by earlier leaders, and every registered member's, are read again before any id is issued.
            if change != nil, let kvs = try? await client.range(prefix: keys.root) {
                member.adopt(idMark: FleetView(kvs, keys: keys).idMark)
            }
        } catch {
            etcdFailed(error)
        }
    }

    // MARK: - Publication

    private func publishIfDue(_ view: FleetView) async {
        let (epoch, own, generation) = state.withLock { ($0.election.epoch, $0.ownPointer, $0.generation.number) }
        let token = FleetFenceToken(generation: generation, revision: epoch)
        // A pointer this leader did not write (another writer of the fleet's keys) is replaced as if none were there.
        let standing = view.pointer == own || view.pointer?.token != token ? view.pointer : nil
        if standing == nil, let foreign = view.pointer, foreign.token == token {
            log("fleet: the pointer v\(foreign.version) at token \(token) is not this leader's; rewriting it")
        }
        guard mayAct(), let pointer = await member.publication(after: standing, token: token), mayAct() else { return }
        // The member's mark: it adopted the fleet's only when plausible, so a mark written by someone else that no
        // member could issue below is not written back.
        let mark = member.idMark
        do {
            let result = try await client.txn(
                when: [EtcdCreateRevisionEquals(key: keys.leader, revision: epoch)],
                then: [EtcdPut(key: keys.dataset, value: FleetJSON.encode(pointer)), EtcdPut(key: keys.ids, value: Array(String(mark).utf8))])
            if result.succeeded {
                state.withLock { state in
                    state.status.published = pointer
                    state.ownPointer = pointer
                    // As the watch will report it: a round before that event must not take the older pointer for another writer's.
                    state.apply([
                        EtcdWatchEvent(kv: EtcdKeyValue(key: keys.dataset, value: FleetJSON.encode(pointer), modRevision: result.revision), deleted: false),
                        EtcdWatchEvent(kv: EtcdKeyValue(key: keys.ids, value: Array(String(mark).utf8), modRevision: result.revision), deleted: false),
                    ])
                }
                log("fleet: published v\(pointer.version) at epoch \(epoch) (generation \(generation))")
            } else {
                log("fleet: publish of v\(pointer.version) refused by etcd: epoch \(epoch) no longer leads")
                handle(state.withLock { $0.election.guardedWriteRefused() })
            }
        } catch {
            etcdFailed(error)
        }
    }

    private func register() async {
        let (lease, registered) = state.withLock { ($0.election.lease, $0.registered) }
        guard let lease else { return }
        let record = currentRecord()
        guard record != registered else { return }
        do {
            try await client.put(EtcdPut(key: keys.member(settings.memberName), value: FleetJSON.encode(record), lease: lease))
            let now = monotonic()
            state.withLock { state in
                state.registered = record
                if state.registeredAt == nil { state.registeredAt = now }
            }
        } catch {
            etcdFailed(error)
        }
    }

    /// The record this member would register now.
    func currentRecord() -> MemberRecord {
        let (role, epoch, generation) = state.withLock { ($0.election.role, $0.status.epoch, $0.generation.number) }
        return MemberRecord(
            url: settings.advertiseURL.absoluteString, version: member.heldVersion, epoch: epoch, role: role.rawValue, live: member.holdsLiveData,
            ids: member.idMark, generation: generation)
    }

    // MARK: - Status

    private func handle(_ change: Election.Change?) {
        guard let change else { return }
        switch change {
        case .elected(let epoch):
            log("fleet: elected leader at epoch \(epoch); polling providers")
        case .steppedDown(let reason):
            // The lease may outlive our leadership in etcd: give it back so the leader key goes with it.
            state.withLock { state in
                if let lease = state.election.lease { state.leaseToRevoke = lease }
                _ = state.election.dropLease()
            }
            log("fleet: stepped down (\(reason)); polling stopped")
        }
    }

    private func etcdOK() {
        let recovered = state.withLock { state -> Bool in
            defer { state.status.etcd = "ok" }
            return state.status.etcd != "ok" && state.status.etcd != "starting"
        }
        if recovered { log("fleet: etcd reachable again") }
    }

    private func etcdFailed(_ error: EtcdError) {
        let text = error.description
        let first = state.withLock { state -> Bool in
            defer {
                state.status.etcd = text
                state.failedInRound = true
            }
            return state.status.etcd != text
        }
        if first { log("fleet: \(text)") }
    }
}
