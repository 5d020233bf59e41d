import Fuel
import Foundation

/// The access facts of FuelWatch's `/api/sites` (PROVIDERS.md §2.3), kept to be joined onto RSS stations, which
/// carry none. RSS keys are coordinates and site keys are `site-<id>`, so the join is by place: a site and an RSS
/// station are the same kerb when they lie within `maximumDistanceKm` of each other and their names or their
/// addresses agree (`sameName`, `sameAddress`). A station with no such site, or with more than one, or whose
/// site also fits another station, keeps `access == nil` (unknown): a fact is never guessed.
///
/// Only facts that hold for days are kept (`open_24h`, `membership_required`, truck stop); `isClosedNow`
/// describes the instant of a fetch made once a day and would be wrong by the next RSS poll.
public struct FuelWatchSiteFacts: Sendable {
    public static let maximumDistanceKm = 0.05

    struct Site: Sendable {
        var location: Coordinate
        var name: String
        var address: String
        var access: StationAccess
    }

    let sites: [Site]
    /// When the sites were fetched.
    public let fetchedAt: Date

    /// Sites that publish at least one lasting fact.
    public var count: Int { sites.count }

    init(sites: [Site], fetchedAt: Date) {
        self.sites = sites
        self.fetchedAt = fetchedAt
    }

    /// Reads `GET /api/sites?fuelType=…` through `FuelWatchSitesAdapter`.
    public static func adapt(_ data: Data, fetchedAt: Date) throws(AdapterError) -> FuelWatchSiteFacts {
        let stations = try FuelWatchSitesAdapter.adapt(data, fetchedAt: fetchedAt).update.stations
        let sites = stations.compactMap { station -> Site? in
            let lasting = station.access.map {
                StationAccess(open24h: $0.open24h, membershipRequired: $0.membershipRequired, truckStop: $0.truckStop, hours: $0.hours)
            }
            guard let lasting, !lasting.isEmpty else { return nil }
            return Site(location: station.location, name: station.name, address: station.address, access: lasting)
        }
        return FuelWatchSiteFacts(sites: sites, fetchedAt: fetchedAt)
    }

    /// `stations` with the facts of the one site each matches; `matched` counts them.
    public func join(_ stations: [StationRecord]) -> (stations: [StationRecord], matched: Int) {
        let candidates = stations.map { station in
            sites.indices.filter { Self.agree(station, sites[$0]) }
        }
        var claims: [Int: Int] = [:]
        for list in candidates { for site in list { claims[site, default: 0] += 1 } }
        var matched = 0
        var joined = stations
        for (index, list) in candidates.enumerated() {
            guard list.count == 1, let site = list.first, claims[site] == 1 else { continue }
            joined[index].access = sites[site].access
            matched += 1
        }
        return (joined, matched)
    }

    static func agree(_ station: StationRecord, _ site: Site) -> Bool {
        guard station.location.distanceKm(to: site.location) <= maximumDistanceKm else { return false }
        return sameName(station.name, site.name) || sameAddress(station.address, site.address)
    }

    /// "Vibe Ascot" and "VIBE  ascot": the same words, ignoring case and punctuation.
    static func sameName(_ one: String, _ other: String) -> Bool {
        let words = Self.words(one)
        return !words.isEmpty && words == Self.words(other)
    }

    /// "472-480 Great Eastern Hwy" and "472 Great Eastern Hwy": the same first street number and the same first
    /// word after it (a rebranded site keeps its kerb and usually its address; its trading name changes).
    static func sameAddress(_ one: String, _ other: String) -> Bool {
        guard let left = numberAndStreet(one), let right = numberAndStreet(other) else { return false }
        return left == right
    }

    private static func numberAndStreet(_ address: String) -> [String]? {
        let words = words(address)
        guard let number = words.firstIndex(where: { $0.first?.isNumber == true }),
              let street = words[(number + 1)...].first(where: { $0.first?.isLetter == true }) else { return nil }
        return [words[number], street]
    }

    private static func words(_ text: String) -> [String] {
        text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map(String.init)
    }
}
