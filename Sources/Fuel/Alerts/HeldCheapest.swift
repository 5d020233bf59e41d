import Foundation

/// Each `near` `cheapest_changed` alert's current answer (the station slot and price of its area's cheapest), kept
/// across polls so that a poll searches only the areas whose held cheapest got dearer or left.
///
/// The rule, stated once. A hold (S, p) promises: no station in the alert's area other than S has an eligible price
/// (one `FuelIndex.cheapestNearHits` would take: priced, counted, admitted by the poll's `AccessFilter`) ordered
/// before (p, distance of S, S), by (price, distance, slot). Each poll compares every eligible price with the last
/// poll's (`eligible`), so a station becoming eligible or cheaper in any way (a new price, reopening with time, an
/// implausible verdict lifted) is offered to the holds whose area holds it: one ordered before the hold replaces
/// it, the held station itself getting cheaper lowers it. Nothing getting dearer or leaving can break the promise
/// except at S, and S is checked at use: when S's eligible price in this poll is not exactly p, the area is
/// searched again. A search's answer is a hold that keeps the promise. A hold with no station (`slot` -1) promises
/// the area has no eligible price at all.
///
/// Holds are by alert slot and carry the alert's serial (`PackedAlert.serial`), so a removed or changed alert's hold
/// is never read. Everything is forgotten (every area searched afresh) when the stations' slots or places differ from
/// the last poll's; a new evaluator (a restart, a new leader) starts with none.
struct HeldCheapest: Sendable {
    struct Hold: Sendable {
        var serial: UInt32
        var slot: Int32
        var price: Int32
    }

    /// By alert slot; serial 0 holds nothing.
    private(set) var holds: [Hold] = []
    /// Per `fuel.ordinal * stations + slot`: the eligible price in tenths at the last poll, or -1.
    private var eligible: [Int32] = []
    private var stations: [StationID] = []
    private var locations: [Coordinate] = []

    /// The eligible prices of `poll` in the layout of `FuelIndex.priceTable`: -1 where the station lacks the fuel,
    /// its price does not count, or `access` refuses the station.
    static func eligiblePrices(_ poll: AlertPoll, access: AccessFilter) -> [Int32] {
        let index = poll.index
        let count = index.snapshot.entries.count
        var table = index.priceTable
        index.snapshot.entries.withUnsafeBufferPointer { entries in
            for slot in 0..<count where !access.admits(entries.baseAddress! + slot, membersOnly: index.isMembersOnly(slot)) {
                for fuel in 0..<FuelType.allCases.count { table[fuel * count + slot] = -1 }
            }
        }
        for position in table.indices where index.standingTable[position] != 0 { table[position] = -1 }
        return table
    }

    /// Moves to `poll`: offers every price that became eligible or changed since the last poll to the holds whose
    /// area holds it, and remembers this poll's eligible prices.
    mutating func advance(to poll: AlertPoll, access: AccessFilter, alerts: AlertIndex) {
        let table = Self.eligiblePrices(poll, access: access)
        let entries = poll.snapshot.entries
        let sameStations = entries.count == stations.count
            && entries.indices.allSatisfy { entries[$0].id == stations[$0] && entries[$0].station.location == locations[$0] }
        if !sameStations {
            holds = []
            stations = entries.map(\.id)
            locations = entries.map(\.station.location)
        } else if !holds.isEmpty {
            offer(changedFrom: eligible, to: table, alerts: alerts)
        }
        eligible = table
        if holds.count < alerts.records.count {
            holds.append(contentsOf: repeatElement(Hold(serial: 0, slot: -1, price: -1), count: alerts.records.count - holds.count))
        }
    }

    /// The held answer of the alert in `slot`, when it still holds: nil means search.
    func answer(_ slot: Int, record: PackedAlert) -> AlertPollMemo.Answer?? {
        guard slot < holds.count, record.serial != 0, holds[slot].serial == record.serial else { return nil }
        let hold = holds[slot]
        guard hold.slot >= 0 else { return .some(nil) }
        guard eligible[record.fuelType.ordinal * stations.count + Int(hold.slot)] == hold.price else { return nil }
        return .some(AlertPollMemo.Answer(slot: Int(hold.slot), price: PriceTenths(tenths: Int(hold.price))))
    }

    /// Holds a search's answer for the alert in `slot`.
    mutating func hold(_ answer: AlertPollMemo.Answer?, _ slot: Int, record: PackedAlert) {
        guard slot < holds.count, record.serial != 0 else { return }
        holds[slot] = Hold(serial: record.serial, slot: Int32(answer?.slot ?? -1), price: Int32(answer?.price.tenths ?? -1))
    }

    private struct Offer: PlacedChange {
        var slot: Int
        var price: Int32
        var location: Coordinate
        var cosLatitude: Double
    }

    private mutating func offer(changedFrom old: [Int32], to new: [Int32], alerts: AlertIndex) {
        let count = stations.count
        var byCell: [AlertIndex.CellFuel: [Offer]] = [:]
        for position in new.indices where new[position] >= 0 && new[position] != old[position] {
            let slot = position % count
            let location = locations[slot]
            byCell[AlertIndex.CellFuel(cell: AlertGridCell(location), fuel: FuelType.allCases[position / count]), default: []]
                .append(Offer(slot: slot, price: new[position], location: location, cosLatitude: location.cosLatitude))
        }
        for cell in byCell.values.indices { byCell.values[cell].sort { $0.location.latitude < $1.location.latitude } }
        for (cellFuel, offers) in byCell {
            for alert in alerts.nearCheapest(cell: cellFuel.cell, fuel: cellFuel.fuel) {
                let slot = Int(alert)
                let record = alerts.records[slot]
                guard slot < holds.count, record.serial != 0, holds[slot].serial == record.serial else { continue }
                offer(offers, to: slot, record: record)
            }
        }
    }

    /// One cell's offers in the area of the alert in `slot` against its hold (by price, then distance, then slot).
    /// The alert is filed under every cell its area touches, so it meets each of its cells' offers once; the hold
    /// ends as the least of them and itself whatever order the cells come in.
    private mutating func offer(_ offers: [Offer], to slot: Int, record: PackedAlert) {
        let center = record.center
        let cosLatitude = center.cosLatitude
        let radius = record.radiusKm
        guard center.isValid, radius.isFinite, radius > 0 else { return } // never searched into (no answer to change)
        var hold = holds[slot]
        var heldDistance = hold.slot < 0 ? 0 : center.distanceKm(
            to: locations[Int(hold.slot)], cosLatitude: cosLatitude, otherCosLatitude: locations[Int(hold.slot)].cosLatitude)
        RadiusBand.forEach(in: offers, within: radius, of: center) { offer, distance in
            if offer.slot == Int(hold.slot) {
                hold.price = min(hold.price, offer.price)
            } else if hold.slot < 0 || (offer.price, distance, offer.slot) < (hold.price, heldDistance, Int(hold.slot)) {
                hold = Hold(serial: hold.serial, slot: Int32(offer.slot), price: offer.price)
                heldDistance = distance
            }
            return true
        }
        holds[slot] = hold
    }
}
