import Foundation

/// Whether a station is open at an instant: judged in its state's local time at its provider's clock
/// (`DataClocks`: the wall clock for live data, the capture instant for sample data), so a sample recorded at
/// 09:00 answers as of 09:00 and a live feed as of now.
public enum OpenNow {
    /// How long a provider's "closed now" flag speaks for the station when no hours are published: a poll
    /// interval, since the flag is a snapshot of one moment.
    public static let observationLifetime: TimeInterval = 30 * 60

    /// `true` open, `false` closed, `nil` unknown (nothing published, or only an observation too old to trust).
    public static func isOpen(_ access: StationAccess?, in state: AustralianState, at instant: Date) -> Bool? {
        guard let access else { return nil }
        if access.open24h == true { return true }
        if let hours = access.hours { return isOpen(hours, at: LocalMoment(instant, in: state.zone)) }
        if let closed = access.closedNow, let observedAt = access.observedAt,
           abs(instant.timeIntervalSince(observedAt)) <= observationLifetime {
            return !closed
        }
        return nil
    }

    /// Whether `isOpen` can say anything of `access` at some instant: when not, it is nil at every instant, and a
    /// list need not read the station at all (`StationLayout.tellsOpening`).
    public static func canTell(_ access: StationAccess?) -> Bool {
        guard let access else { return false }
        return access.open24h == true || access.hours != nil || (access.closedNow != nil && access.observedAt != nil)
    }

    /// A station judged at its own provider's clock; the clock is read only for a station that publishes facts
    /// (most publish none).
    @inline(__always)
    public static func isOpen(
        _ access: StationAccess?, in state: AustralianState, of provider: ProviderID, clocks: DataClocks, wall: Date
    ) -> Bool? {
        guard let access else { return nil }
        return isOpen(access, in: state, at: clocks.now(for: provider, wall: wall))
    }

    static func isOpen(_ hours: WeeklyHours, at moment: LocalMoment) -> Bool {
        switch hours.days[moment.weekday] {
        case .allDay: return true
        case .open(let from, let to) where to > from:
            if (from..<to).contains(moment.minute) { return true }
        case .open(let from, _):
            if moment.minute >= from { return true }
        case .closed: break
        }
        // Yesterday's overnight hours reach into today's early minutes.
        if case .open(let from, let to) = hours.days[(moment.weekday + 6) % 7], to <= from, moment.minute < to { return true }
        return false
    }
}

/// A local weekday (0 = Monday) and minute of the day, from the zone's offset at that instant (no Calendar:
/// this runs for every station of a list).
struct LocalMoment: Hashable {
    var weekday: Int
    var minute: Int

    init(_ instant: Date, in zone: TimeZone) {
        let local = Int((instant.timeIntervalSince1970).rounded(.down)) + zone.secondsFromGMT(for: instant)
        let days = Int((Double(local) / 86_400).rounded(.down))
        // 1970-01-01 was a Thursday (3 days after Monday).
        weekday = ((days + 3) % 7 + 7) % 7
        minute = (local - days * 86_400) / 60
    }

    init(weekday: Int, minute: Int) {
        self.weekday = weekday
        self.minute = minute
    }
}
