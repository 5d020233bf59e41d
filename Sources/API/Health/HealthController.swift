import Foundation
import Fuel
import HTTP

/// `GET /health`: liveness and freshness for ops and nginx. 503 only when no data at all is loaded.
/// Clients outside `detail` (the `/metrics` audience) get it without paths, URLs and error texts.
struct HealthController: RouteCollection {
    let context: PettyContext
    let version: String
    let detail: InternalAccess

    func boot(routes: RoutesBuilder) throws {
        routes.get("health", use: health)
    }

    struct HealthDTO: Encodable {
        struct SnapshotInfo: Encodable {
            var version: UInt64
            var changedAt: String?
            var ageSeconds: Int?
        }

        struct StateCount: Encodable {
            var state: String
            var stations: Int
            var prices: Int
        }

        struct ProviderInfo: Encodable {
            var provider: String
            var status: String
            var source: String
            var asOf: String?
            var lastAttempt: String?
            var lastSuccess: String?
            var lastError: String?
            var lastErrorAt: String?
            var consecutiveFailures: Int
            var nextPoll: String?
            var stations: Int
            var prices: Int
            /// "leader" on a follower: the polls are the leader's, as it last reported them.
            var seenThrough: String?
        }

        var status: String
        var version: String
        var uptimeSeconds: Int
        var source: String
        var stations: Int
        var prices: Int
        var snapshot: SnapshotInfo
        var states: [StateCount]
        var providers: [ProviderInfo]
        var follow: HealthController.FollowInfo?
        var persistence: HealthController.PersistenceInfo?
        var coordination: CoordinationInfo? = nil
        /// Always present: `off` without `PETTY_DATABASE_URL`.
        var alerts = AlertsInfo(AlertsHealth())
    }

    struct FollowInfo: Encodable {
        var leader: String?
        var status: String
        var lastSync: String?
        var lastError: String?
    }

    struct PersistenceInfo: Encodable {
        struct LoadInfo: Encodable {
            var at: String?
            var problemCount: Int
            var problems: [String]?
        }
        var status: String
        var lastSave: String?
        var lastError: String?
        var lastErrorAt: String?
        var consecutiveFailures: Int
        var lastLoad: LoadInfo

        init(_ health: PersistenceHealth) {
            status = health.isFailing ? "failing" : "ok"
            lastSave = health.lastSave.map(ISOTimestamp.string)
            lastError = health.lastError
            lastErrorAt = health.lastErrorAt.map(ISOTimestamp.string)
            consecutiveFailures = health.consecutiveFailures
            lastLoad = LoadInfo(at: health.loadedAt.map(ISOTimestamp.string), problemCount: health.loadProblems.count, problems: health.loadProblems)
        }
    }

    /// Each provider the snapshot holds data from or the pollers have tried: its data from the snapshot, how its
    /// polls go from the status store (`sample` while serving samples and not failing), and `stale` too when polls
    /// succeed but bring nothing new for longer than the provider's limit (`QuietProviders`: every price is stale).
    static func providers(_ snapshot: Snapshot, health: [ProviderID: ProviderHealth], seenThrough: String? = nil) -> [HealthDTO.ProviderInfo] {
        let ids = Set(snapshot.statuses.map(\.provider)).union(health.keys).sorted()
        return ids.map { provider in
            let data = snapshot.status(of: provider)
            let polls = health[provider] ?? ProviderHealth()
            let source = data?.source ?? .live
            let state = polls.state != .ok ? polls.state.rawValue
                : source == .sample ? "sample" : data?.staleSince != nil ? ProviderHealth.State.stale.rawValue : "ok"
            return HealthDTO.ProviderInfo(
                provider: provider.rawValue, status: state, source: source.rawValue,
                asOf: data?.asOf.map(ISOTimestamp.string), lastAttempt: polls.lastAttempt.map(ISOTimestamp.string),
                lastSuccess: polls.lastSuccess.map(ISOTimestamp.string), lastError: polls.lastError,
                lastErrorAt: polls.lastErrorAt.map(ISOTimestamp.string), consecutiveFailures: polls.consecutiveFailures,
                nextPoll: polls.nextPoll.map(ISOTimestamp.string), stations: data?.stationCount ?? 0, prices: data?.priceCount ?? 0,
                seenThrough: seenThrough)
        }
    }

    func health(_ request: Request) throws -> Response {
        let view = context.store.current
        let snapshot = view.snapshot
        let now = context.clock()
        var counts: [AustralianState: (Int, Int)] = [:]
        for entry in snapshot.entries {
            counts[entry.station.state, default: (0, 0)].0 += 1
            counts[entry.station.state, default: (0, 0)].1 += entry.prices.count
        }
        let leaderProviders = context.follower?().state.leaderProviders
        let providers = leaderProviders.map { Self.providers(snapshot, health: $0, seenThrough: "leader") }
            ?? Self.providers(snapshot, health: context.providers?.all ?? [:])
        let hasData = snapshot.stationCount > 0
        let follow = context.follower.map { current -> FollowInfo in
            let status = current()
            let state = status.state
            return FollowInfo(
                leader: status.leader, status: state.failing ? "failing" : (state.lastSync == nil ? "starting" : "ok"),
                lastSync: state.lastSync.map(ISOTimestamp.string), lastError: state.lastError)
        }
        let persistence = context.persistence.map { PersistenceInfo($0()) }
        let coordination = context.coordination?()
        let alerts = AlertsInfo(context.alerts?() ?? AlertsHealth())
        let degraded = providers.contains { $0.status == "failing" || $0.status == "stale" } || follow?.status == "failing"
            || persistence?.status == "failing" || coordination?.degraded != nil || alerts.status == AlertsHealth.Status.degraded.rawValue
        var dto = HealthDTO(
            status: !hasData ? "unavailable" : (degraded ? "degraded" : "ok"),
            version: version,
            uptimeSeconds: Int(now.timeIntervalSince(context.startedAt)),
            source: view.rendered.overallMeta.source,
            stations: snapshot.stationCount,
            prices: snapshot.priceCount,
            snapshot: .init(
                version: snapshot.version, changedAt: snapshot.changedAt.map(ISOTimestamp.string),
                ageSeconds: snapshot.changedAt.map { Int(now.timeIntervalSince($0)) }),
            states: counts.keys.sorted().map { HealthDTO.StateCount(state: $0.rawValue, stations: counts[$0]!.0, prices: counts[$0]!.1) },
            providers: providers, follow: follow, persistence: persistence)
        dto.coordination = coordination
        dto.alerts = alerts
        let shown = detail.allows(request) ? dto : dto.withoutInternals()
        var response = Response(contentType: "application/json; charset=utf-8", body: try JSONCoding.encode(shown))
        response.status = hasData ? .ok : .serviceUnavailable
        response.headers.add(name: "Cache-Control", value: "no-store")
        return response
    }
}
