import Foundation

extension Snapshot {
    /// The local calendar day each state's current prices describe: what `/v1/averages` is about, and the day
    /// `History.recording` files the state's trend point under. Per provider, the day its update said it describes
    /// (`ProviderStatus.describedDay`), else `HistoryDay.of(asOf:)`; the newest over the providers with stations in
    /// the state. A state without data has no entry. One pass over the entries (computed once per snapshot).
    public func dataDays() -> [AustralianState: CalendarDay] {
        var providers: [AustralianState: Set<ProviderID>] = [:]
        for entry in entries { providers[entry.station.state, default: []].insert(entry.station.provider) }
        var days: [AustralianState: CalendarDay] = [:]
        for (state, serving) in providers {
            for provider in serving {
                guard let status = status(of: provider), let asOf = status.asOf else { continue }
                let day = status.describedDay ?? HistoryDay.of(asOf: asOf, state: state)
                days[state] = max(days[state] ?? day, day)
            }
        }
        return days
    }
}
