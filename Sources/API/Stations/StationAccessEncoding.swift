import Foundation
import Fuel

/// The station fields about opening and access. `open_24h` and `membership_required` are facts of the snapshot,
/// written into the per-snapshot fragment; `open_now` depends on the instant, so it is appended per request
/// (`openNow`) like `distance_km`, judged at the station's provider clock, and folded into the ETag.
extension StationEncoding {
    static func writeAccess(_ station: Station, into json: inout JSONWriter) {
        let access = station.access
        json.field("open_24h", access?.open24h ?? (access?.hours?.isAlwaysOpen == true ? true : nil))
        json.field("membership_required", station.membershipRequired)
        json.raw(",\"opening_hours\":")
        if let hours = access?.hours { writeHours(hours, into: &json) } else { json.null() }
    }

    /// `"kind":"fuel"` and `"adblue":true|false|null`.
    static func writeFacts(_ station: Station, into json: inout JSONWriter) {
        json.field("kind", station.kind.rawValue)
        json.field("adblue", station.facts?.adBlue)
    }

    /// `[{"day":"mon","open":"06:00","close":"22:00"}, ...]`, Monday first, in the station's local time: a closed day
    /// has null times, a day open all day 00:00 to 24:00, and a close at or before the open runs past midnight.
    static func writeHours(_ hours: WeeklyHours, into json: inout JSONWriter) {
        json.raw("[")
        for (index, day) in hours.days.enumerated() {
            if index > 0 { json.raw(",") }
            json.raw("{\"day\":\"")
            json.raw(weekdays[index])
            json.raw("\",\"open\":")
            switch day {
            case .closed: json.raw("null,\"close\":null}")
            case .allDay: json.raw("\"00:00\",\"close\":\"24:00\"}")
            case .open(let from, let to):
                json.string(clock(from))
                json.field("close", clock(to))
                json.raw("}")
            }
        }
        json.raw("]")
    }

    private static let weekdays: [StaticString] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]

    /// `06:05` for 365 minutes after midnight.
    private static func clock(_ minutes: Int) -> String {
        let hour = minutes / 60, minute = minutes % 60
        return (hour < 10 ? "0" : "") + String(hour) + ":" + (minute < 10 ? "0" : "") + String(minute)
    }

    /// `,"open_now":true|false|null` for a list or detail object; `value` also goes into the ETag.
    static func writeOpenNow(_ value: Bool?, into json: inout some JSONOutput) {
        json.field("open_now", value)
    }

    /// One byte for ETags: 0 unknown, 1 closed, 2 open.
    static func openNowByte(_ value: Bool?) -> UInt8 { value.map { $0 ? 2 : 1 } ?? 0 }
}

/// `open_now` per station at request time: each provider's clock from one wall-clock reading.
struct OpenNowJudge {
    let clocks: DataClocks
    let wall: Date

    func callAsFunction(_ station: Station) -> Bool? {
        OpenNow.isOpen(station.access, in: station.state, of: station.provider, clocks: clocks, wall: wall)
    }

    /// The same, reading the record in place rather than copying it.
    func callAsFunction(_ entry: UnsafePointer<StationEntry>) -> Bool? {
        OpenNow.isOpen(
            entry.pointee.station.access, in: entry.pointee.station.state, of: entry.pointee.station.provider,
            clocks: clocks, wall: wall)
    }
}

extension StationEncoding {
    /// `{"data": station, "meta": meta}` for `GET /v1/stations/:id`. Sized exactly: a snapshot holds one per station,
    /// and the station's list fragment is a slice of it (`fragment(inDetailBody:count:)`), not a copy of its own.
    static func detailBody(fragment: ArraySlice<UInt8>, openNow: Bool?, meta: DataMeta) -> [UInt8] {
        // 29 bytes at most besides the prefix, the fragment and the meta's fields: `open_now` and the braces.
        var body = JSONWriter(capacity: detailPrefix.utf8CodeUnitCount + fragment.count + 32 + meta.fields.count)
        body.raw(detailPrefix)
        body.raw(fragment)
        writeOpenNow(openNow, into: &body)
        body.raw("},\"meta\":")
        meta.write(into: &body)
        body.raw("}")
        return body.bytes
    }

    /// The station's list fragment inside a `detailBody` whose fragment was `count` bytes long.
    static func fragment(inDetailBody body: [UInt8], count: Int) -> ArraySlice<UInt8> {
        let start = detailPrefix.utf8CodeUnitCount
        return body[start..<start + count]
    }

    private static let detailPrefix: StaticString = "{\"data\":"
}
