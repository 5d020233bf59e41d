import AlertStore
import Foundation
import Fuel
import Testing

@testable import App

/// Crossings the evaluator must not skip because of when a price was stamped: merges published out of their polls'
/// order on one member, and a new leader whose clock is behind the one that evaluated last
/// (Tests/postgres/run.sh AlertsLive).
@Suite(.serialized, .enabled(if: AlertsLiveWorld.base != nil, AlertsLiveWorld.skipReason))
struct AlertsLiveResumeTests {
    /// The fleet's leader polls NSW and WA every minute, together: WA's poll (seven products, half a second apart)
    /// starts first and merges last, dated its start; NSW's merge is published and evaluated in between.
    @Test func aCrossingMergedAfterAnotherPollersLaterMergeIsDecided() async throws {
        try await AlertsLiveWorld.with { world in
            let store = FuelStore(initial: Dataset())
            let t0 = world.t0
            store.apply(Self.update(.nsw, u91: 1_900, at: t0), at: t0)
            store.apply(Self.update(.wa, u91: 1_900, at: t0), at: t0)
            let station = store.current.snapshot.entries.first { $0.station.key == StationKey(provider: .wa, sourceID: "1") }!.id
            _ = try await world.subscribe(station: station)
            await world.evaluate(store.current.index)
            store.apply(Self.update(.nsw, u91: 1_880, at: t0.addingTimeInterval(62)), at: t0.addingTimeInterval(62))
            await world.evaluate(store.current.index)
            store.apply(Self.update(.wa, u91: 1_900, station1: 1_800, at: t0.addingTimeInterval(60)), at: t0.addingTimeInterval(60))
            await world.evaluate(store.current.index)
            let keys = try await world.client.query("SELECT decision_key FROM notifications").rows.compactMap { $0["decision_key"] }
            #expect(keys == ["a1.s\(station.rawValue).U91.v\(store.current.version)"])
        }
    }

    /// The last leader evaluated its snapshot 5 and was killed before this member copied it; this member, its clock
    /// 30 s behind the last leader's, took over from snapshot 4 and published its own 5 with the crossing.
    @Test func aNewLeaderWhoseClockIsBehindDecidesACrossingStampedBeforeTheLastLeadersProgress() async throws {
        try await AlertsLiveWorld.with { world in
            _ = try await world.subscribe()
            await world.publish(1, station1: 1_900)
            // Standby: another member evaluates, this one copies its snapshots.
            world.token.withLock { $0 = nil }
            await world.publish(4, station1: 1_900)
            let last = EvaluationProgress(snapshotVersion: 5, snapshotChangedAt: world.t0.addingTimeInterval(300), tomorrowAnnounced: nil)
            _ = try await OutboxRepository(client: world.client).decide([], token: FenceToken(generation: 0, revision: 2), progress: last)
            world.token.withLock { $0 = FenceToken(generation: 0, revision: 3) }
            await world.publish(5, at: world.t0.addingTimeInterval(270), station1: 1_840)
            let keys = try await world.client.query("SELECT decision_key FROM notifications").rows.compactMap { $0["decision_key"] }
            #expect(keys == ["a1.s1.U91.v5"])
        }
    }

    /// A full update of 20 stations "1"..."20" at `u91` (+ index), station "1" at `station1` when given.
    static func update(_ provider: ProviderID, u91: Int, station1: Int? = nil, at instant: Date) -> ProviderUpdate {
        let state: AustralianState = provider == .wa ? .WA : .NSW
        let ids = (1...20).map(String.init)
        return ProviderUpdate(
            provider: provider,
            stations: ids.map { id in
                StationRecord(key: StationKey(provider: provider, sourceID: id), name: "Station \(id)", brand: "Ampol", address: "1 Main St",
                              suburb: "Town", state: state, postcode: "2000",
                              location: state == .WA ? Coordinate(latitude: -31.95, longitude: 115.86 + Double(Int(id)!) / 100)
                                  : Coordinate(latitude: -33.87, longitude: 151.20 + Double(Int(id)!) / 100))
            },
            prices: ids.map { id in
                PriceRecord(station: StationKey(provider: provider, sourceID: id), fuel: .U91,
                            price: PriceTenths(tenths: id == "1" ? station1 ?? u91 + 1 : u91 + Int(id)!), updatedAt: instant)
            },
            asOf: instant, isDelta: false)
    }
}
