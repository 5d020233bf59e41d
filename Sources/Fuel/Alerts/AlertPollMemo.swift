import Foundation

/// What one evaluation computes once and every alert asking the same shares: each distinct cheapest question's
/// answer (one search per exact centre, radius and fuel, so every alert still gets what its own search would give),
/// each delivery rule's schedule at the poll's instant (quiet hours and daily times per zone), and the access filter.
/// With `held` (a poll of `AlertEvaluator.evaluate`), an alert whose area's answer still holds is not searched at all.
struct AlertPollMemo {
    struct Question: Hashable {
        var latitude: UInt64
        var longitude: UInt64
        var radius: UInt64
        var fuel: UInt8
    }

    struct Answer {
        var slot: Int
        var price: PriceTenths
    }

    struct Rule: Hashable {
        var dailyAt: Int16
        var quietFrom: Int16
        var quietTo: Int16
        var zone: UInt16
    }

    struct Schedule {
        var deliverAfter: Date?
        /// For a `daily` rule: the local day of its delivery, which names the alert's summary group.
        var day: String?
    }

    let access: AccessFilter
    private(set) var answers: [Question: Answer?] = [:]
    private var schedules: [Rule: Schedule] = [:]
    /// How many cheapest searches ran (distinct questions), for the benchmark's report.
    private(set) var searches = 0
    /// The evaluator's held answers, advanced to this poll, while the poll runs.
    var held: HeldCheapest?

    init(_ poll: AlertPoll) {
        var access = AccessFilter(opening: .notClosed, excludesMembersOnly: true, clocks: poll.clocks, wall: poll.now)
        // Sample prices never move an alert, so an area's cheapest is searched among live stations only: a sample
        // station cheaper than them must not hide the live one.
        access.leavesOut = poll.sampleProviders
        self.access = access
    }

    /// The cheapest of the `near` alert in `slot`: its held answer while that holds, else its question's search (held
    /// from then on).
    mutating func cheapest(alert slot: Int, _ record: PackedAlert, in index: FuelIndex) -> Answer? {
        if let known = held?.answer(slot, record: record) { return known }
        let answer = cheapest(near: record.center, radiusKm: record.radiusKm,
                              fuel: record.fuelType, in: index)
        held?.hold(answer, slot, record: record)
        return answer
    }

    /// The area's cheapest admitted, counted price of a `near` question (cheapest, then nearest, then lowest slot).
    mutating func cheapest(near point: Coordinate, radiusKm: Double, fuel: FuelType, in index: FuelIndex) -> Answer? {
        let question = Question(latitude: point.latitude.bitPattern, longitude: point.longitude.bitPattern, radius: radiusKm.bitPattern,
                                fuel: UInt8(fuel.ordinal))
        if let known = answers[question] { return known }
        searches += 1
        var answer: Answer?
        if let hit = index.cheapestNearHits(fuel: fuel, point: point, radiusKm: radiusKm, limit: 1, access: access).first,
           let price = index.priceTenths(fuel, slot: hit.slot) {
            answer = Answer(slot: hit.slot, price: PriceTenths(tenths: price))
        }
        answers[question] = answer
        return answer
    }

    /// When a decision of an alert with this delivery rule, made at `now`, may be pushed: `immediate` now, or at
    /// the end of the alert's quiet hours; `daily` at the next `at` in the device's zone, once a local day (the first
    /// of a time the clocks repeat), or, should that fall in its quiet hours, at their end; grouped with that day's
    /// other decisions of the alert into one summary.
    mutating func schedule(_ record: PackedAlert, zones: [TimeZone], now: Date) -> Schedule {
        let rule = Rule(dailyAt: record.dailyAt, quietFrom: record.quietFrom, quietTo: record.quietTo, zone: record.zone)
        if let known = schedules[rule] { return known }
        let zone = zones[Int(record.zone)]
        let schedule: Schedule
        if record.dailyAt != PackedAlert.noMinute, let at = TimeOfDay(minutes: Int(record.dailyAt)) {
            let when = at.nextOccurrence(onOrAfter: now, in: zone, repeats: false)
            schedule = Schedule(deliverAfter: record.quietHours?.deliveryTime(for: when, in: zone) ?? when,
                                day: CalendarDay(containing: when, in: zone).description)
        } else if let quiet = record.quietHours {
            let at = quiet.deliveryTime(for: now, in: zone)
            schedule = Schedule(deliverAfter: at == now ? nil : at, day: nil)
        } else {
            schedule = Schedule(deliverAfter: nil, day: nil)
        }
        schedules[rule] = schedule
        return schedule
    }
}
