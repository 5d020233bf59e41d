import Fuel

/// `fill_cost` and `saving` on each station of a `near` + `fuel` list (`FillPlan`), and `meta.fill`, the
/// inputs they were computed from.
struct FillCostEncoding {
    let plan: FillPlan
    let reference: FillReference?
    let entries: [StationEntry]

    /// Nothing for a station whose price of the fuel does not count (stale or implausible).
    func write(_ hit: SlotPage.Hit, into json: inout some JSONOutput) {
        write(costCents: hit.fillCostCents, into: &json)
    }

    func write(costCents: Int?, into json: inout some JSONOutput) {
        guard let cost = costCents else { return }
        json.raw(",\"fill_cost\":")
        Self.dollars(cost, into: &json)
        guard let reference else { return }
        json.raw(",\"saving\":")
        Self.dollars(reference.costCents - cost, into: &json)
    }

    /// `,"fill":{"litres":40,"l_per_100km":8,"nearest_id":17,"nearest_fill_cost":75.96}`; the nearest is null when
    /// no match has a price that counts.
    func writeMeta(into json: inout some JSONOutput) {
        json.raw(",\"fill\":{\"litres\":")
        json.decimal(plan.litres, places: 2)
        json.field("l_per_100km", plan.litresPer100Km, places: 2)
        json.field("nearest_id", reference.map { entries[$0.slot].id.rawValue })
        json.raw(",\"nearest_fill_cost\":")
        if let reference { Self.dollars(reference.costCents, into: &json) } else { json.null() }
        json.raw("}")
    }

    /// What a list's ETag takes for one station's fill fields: its cost, or `UInt64.max` (no real cost's word) for none.
    static func hashWord(_ costCents: Int?) -> UInt64 {
        costCents.map { UInt64(bitPattern: Int64($0)) } ?? .max
    }

    static func dollars(_ cents: Int, into json: inout some JSONOutput) {
        json.hundredths(ofInteger: cents)
    }
}
