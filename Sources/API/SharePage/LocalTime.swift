import Foundation
import Fuel

/// An instant as a station's neighbours read it: wall-clock parts in the station's state, formatted by hand
/// ("2:35 pm", "14 Jan", "Wed 14 Jan 2026", "AEDT"). No `DateFormatter`; only the zone's offset is asked of
/// Foundation. Built once per snapshot for each price a share page shows.
struct LocalTime {
    let year: Int
    let month: Int
    let day: Int
    let hour: Int
    let minute: Int
    /// 0 = Sunday.
    let weekday: Int
    /// Seconds east of UTC in force at the instant.
    let offset: Int
    /// The local calendar day containing the instant, as UTC instants (seconds since 1970): [start, end).
    let dayStart: Double
    let dayEnd: Double

    init(_ instant: Date, in zone: TimeZone) {
        let offset = zone.secondsFromGMT(for: instant)
        let local = Int(instant.timeIntervalSince1970.rounded(.down)) + offset
        let days = Self.floorDiv(local, 86_400)
        let seconds = local - days * 86_400
        let civil = CalendarDay(dayNumber: days).components
        self.year = civil.year
        self.month = civil.month
        self.day = civil.day
        self.hour = seconds / 3_600
        self.minute = (seconds % 3_600) / 60
        self.weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday (4).
        self.offset = offset
        self.dayStart = Self.instant(ofLocalSeconds: days * 86_400, in: zone, guess: offset)
        self.dayEnd = Self.instant(ofLocalSeconds: (days + 1) * 86_400, in: zone, guess: offset)
    }

    /// "2:35 pm", "12:05 am"
    var clock: String {
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return "\(twelve):\(minute < 10 ? "0" : "")\(minute) \(hour < 12 ? "am" : "pm")"
    }

    /// "14 Jan"
    var shortDate: String { "\(day) \(Self.months[month - 1])" }

    /// "Wed 14 Jan"
    var dayDate: String { "\(Self.weekdays[weekday]) \(shortDate)" }

    /// "Wed 14 Jan 2026"
    var longDate: String { "\(Self.weekdays[weekday]) \(day) \(Self.months[month - 1]) \(year)" }

    /// "AEDT": Australian abbreviations by offset (Foundation on Linux may answer "GMT+11"); "UTC+hh:mm" otherwise.
    var zoneAbbreviation: String {
        switch offset {
        case 28_800: return "AWST"
        case 34_200: return "ACST"
        case 37_800: return "ACDT"
        case 36_000: return "AEST"
        case 39_600: return "AEDT"
        default:
            let sign = offset < 0 ? "-" : "+"
            let minutes = abs(offset) / 60
            return "UTC\(sign)\(minutes / 60 < 10 ? "0" : "")\(minutes / 60):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)"
        }
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]

    /// The UTC instant of a local wall time; Australian DST changes at 2-3 am, so midnight is never skipped.
    private static func instant(ofLocalSeconds local: Int, in zone: TimeZone, guess: Int) -> Double {
        let first = local - guess
        let offset = zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(first)))
        return Double(local - offset)
    }

    private static func floorDiv(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
