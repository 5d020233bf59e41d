import Fuel
import Foundation

/// One unit of sample loading: read some files, adapt them, say whether the result is current or history.
struct SampleJob: Sendable {
    enum Output: Sendable {
        case current(ProviderUpdate)
        case history(ProviderUpdate)
    }

    let run: @Sendable () throws(SampleDataError) -> Output
}

/// The bundled files and the capture instants they stand for (the payloads mostly carry their own timestamps;
/// these only fill `fetchedAt` where a payload has none).
struct SampleFiles {
    let root: URL
    let vicHistory: [(day: String, url: URL)]
    let waDays: [(day: String, urls: [URL])]

    /// NSW: the Postman file name of the capture (epoch ms 1768444371876).
    static let nswFetchedAt = Date(timeIntervalSince1970: 1_768_444_371.876)
    /// QLD: the capture date is unknown (the site list was uploaded in 2025; its newest `M` is 2020-12-02).
    static let qldFetchedAt = instant(day: "2025-08-03", hour: 0)
    /// SA: the site record's own last-modified stamp; the assembled records carry no capture time.
    static let saFetchedAt = instant(day: "2023-12-27", hour: 9)
    /// VIC: archived daily at about 14:00 UTC on the file's date.
    static let vicFetchHourUTC = 14
    /// WA: day files are captures after 14:30 AWST; 16:00 AWST (08:00 UTC) places every one in its pricing day.
    static let waFetchHourUTC = 8

    init(root: URL) throws(SampleDataError) {
        self.root = root
        vicHistory = try Self.dated(in: root.appendingPathComponent("vic/history"), prefix: "vic_prices_").map { ($0.day, $0.url) }
        let waFiles = try Self.dated(in: root.appendingPathComponent("wa"), prefix: "wa_api_sites_")
        waDays = Dictionary(grouping: waFiles, by: \.day).map { ($0.key, $0.value.map(\.url)) }.sorted { $0.day < $1.day }
    }

    func jobs() throws(SampleDataError) -> [SampleJob] {
        let root = root
        // Small reference files shared by many jobs: read once.
        let (vicBrands, waBrands) = try Self.adapt { () throws(AdapterError) in
            (try FairFuelAdapter.brands(try Self.read(root, "vic/vic_reference-data_brands.json")),
             try FuelWatchSitesAdapter.brands(try Self.read(root, "wa/wa_api_brands_2026-04-22.json")))
        }
        var jobs: [SampleJob] = []
        jobs.append(SampleJob { () throws(SampleDataError) in
            let adapted = try Self.adapt { () throws(AdapterError) in
                try NSWFuelCheckAdapter.adapt(try Self.read(root, "nsw/nsw_v1_fuel_prices.json"), fetchedAt: Self.nswFetchedAt)
            }
            return .current(adapted[0].update)
        })
        jobs.append(SampleJob { () throws(SampleDataError) in
            .current(try Self.adapt { () throws(AdapterError) in
                let brands = try InformedSourcesAdapter.brands(try Self.read(root, "qld/qld_GetCountryBrands.json"))
                let suburbs = try InformedSourcesAdapter.suburbs(try Self.read(root, "qld/qld_GetCountryGeographicRegions.json"))
                return try InformedSourcesAdapter.sites(
                    try Self.read(root, "qld/qld_GetFullSiteDetails.json"), region: .qld, brands: brands, suburbs: suburbs,
                    fetchedAt: Self.qldFetchedAt).update
            })
        })
        jobs.append(SampleJob { () throws(SampleDataError) in
            .current(try Self.adapt { () throws(AdapterError) in
                // The SA fragments hold one site and two price rows for other sites: one station, no prices.
                let sites = try InformedSourcesAdapter.sites(
                    try Self.read(root, "sa/sa_GetFullSiteDetails.record-fragment.json"), region: .sa, brands: [169: "On the Run"],
                    suburbs: [170227225: "Dry Creek"], fetchedAt: Self.saFetchedAt)
                return try InformedSourcesAdapter.prices(
                    try Self.read(root, "sa/sa_GetSitesPrices.assembled-fragment.json"), region: .sa,
                    stations: sites.update.stations, fetchedAt: Self.saFetchedAt).update
            })
        })
        jobs.append(SampleJob { () throws(SampleDataError) in
            .current(try Self.adapt { () throws(AdapterError) in
                try FairFuelAdapter.adapt(
                    try Self.read(root, "vic/vic_fuel_prices.json"), brands: vicBrands,
                    fetchedAt: Self.instant(day: "2026-08-22", hour: Self.vicFetchHourUTC)).update
            })
        })
        // VIC history: one job per day file (they are the bulk of the bytes).
        for (day, url) in vicHistory {
            jobs.append(SampleJob { () throws(SampleDataError) in
                .history(try Self.adapt { () throws(AdapterError) in
                    try FairFuelAdapter.adapt(
                        try Self.read(url), brands: vicBrands, fetchedAt: Self.instant(day: day, hour: Self.vicFetchHourUTC)).update
                })
            })
        }
        // WA: each day's ULP and DSL files combined; the newest day is current (with tomorrow's prices).
        let newestWADay = waDays.last?.day
        for (day, urls) in waDays {
            jobs.append(SampleJob { () throws(SampleDataError) in
                var update = try Self.adapt { () throws(AdapterError) in
                    let fetchedAt = Self.instant(day: day, hour: Self.waFetchHourUTC)
                    var parts: [Adapted] = []
                    for url in urls.sorted(by: { $0.lastPathComponent < $1.lastPathComponent }) {
                        parts.append(try FuelWatchSitesAdapter.adapt(try Self.read(url), brands: waBrands, fetchedAt: fetchedAt))
                    }
                    return Adapted.combining(parts)!.update
                }
                if day == newestWADay { return .current(update) }
                update.tomorrow = []
                return .history(update)
            })
        }
        return jobs
    }

    // MARK: Helpers

    private static func adapt<T>(_ body: () throws(AdapterError) -> T) throws(SampleDataError) -> T {
        do { return try body() } catch { throw .adapter(error) }
    }

    private static func read(_ root: URL, _ path: String) throws(AdapterError) -> Data {
        try read(root.appendingPathComponent(path))
    }

    /// Unreadable sample files surface as an adapter "empty payload" naming the file; the bundle is ours, so this
    /// only happens when a resource was not copied.
    private static func read(_ url: URL) throws(AdapterError) -> Data {
        guard let data = try? Data(contentsOf: url) else { throw .emptyPayload(source: "sample file \(url.lastPathComponent)") }
        return data
    }

    /// Files named `<prefix>…_YYYY-MM-DD.json` in a folder, with their dates, oldest first.
    private static func dated(in folder: URL, prefix: String) throws(SampleDataError) -> [(day: String, url: URL)] {
        let names: [String]
        do { names = try FileManager.default.contentsOfDirectory(atPath: folder.path) } catch {
            throw .unreadable(path: folder.path, reason: String(describing: error))
        }
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }.compactMap { name in
            let day = String(name.dropLast(".json".count).suffix(10))
            guard WireTime.days(isoDay: day) != nil else { return nil }
            return (day, folder.appendingPathComponent(name))
        }.sorted { ($0.day, $0.url.lastPathComponent) < ($1.day, $1.url.lastPathComponent) }
    }

    static func instant(day: String, hour: Int) -> Date {
        Date(timeIntervalSince1970: TimeInterval(WireTime.days(isoDay: day)! * WireTime.secondsPerDay + hour * 3600))
    }
}
