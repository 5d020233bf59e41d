import Foundation
import Fuel

/// Builds the pollers `ProviderSettings` asks for, with their clients and auth steps, and describes the plan.
public enum ProviderPollers {
    /// NSW FuelCheck free plan.
    public static let nswMonthlyQuota = 2_500

    /// One poller per enabled provider. NSW and TAS share one client (rate budget) and one token.
    /// `retry` and `waSpacing` are for tests.
    public static func make(
        _ settings: ProviderSettings, retry: RetryPolicy = RetryPolicy(), waSpacing: TimeInterval = 0.5,
        gate: (@Sendable () -> Bool)? = nil
    ) -> [any ProviderPoller] {
        let secrets = settings.credentials.all
        func client(_ budget: RequestBudget? = nil) -> ProviderClient {
            var options = ProviderClient.Options(userAgent: settings.userAgent, maxResponseBytes: settings.maxResponseBytes, retry: retry, budget: budget)
            options.gate = gate
            return ProviderClient(options: options, secrets: secrets)
        }
        let timeout = settings.requestTimeout
        var pollers: [any ProviderPoller] = []
        var nswShared: (ProviderClient, NSWOAuth)?
        func nsw() -> (ProviderClient, NSWOAuth) {
            if let nswShared { return nswShared }
            let auth = NSWOAuth(
                base: settings.baseURL(.nsw), apiKey: settings.credentials.nswAPIKey ?? "",
                apiSecret: settings.credentials.nswAPISecret ?? "", timeout: timeout)
            // The trial tier allows 5 calls a minute.
            let shared = (client(RequestBudget(limit: 5, per: 60)), auth)
            nswShared = shared
            return shared
        }
        for provider in settings.enabled {
            switch provider {
            case .nsw:
                let (client, auth) = nsw()
                pollers.append(NSWPoller(client: client, auth: auth, base: settings.baseURL(.nsw), interval: settings.interval(.nsw), timeout: timeout))
            case .tas:
                let (client, auth) = nsw()
                pollers.append(TASPoller(client: client, auth: auth, base: settings.baseURL(.tas), interval: settings.interval(.tas), timeout: timeout))
            case .wa:
                pollers.append(WAPoller(client: client(), base: settings.baseURL(.wa), interval: settings.interval(.wa), timeout: timeout, spacing: waSpacing))
            case .qld, .sa:
                let region: InformedSourcesAdapter.Region = provider == .qld ? .qld : .sa
                let token = (provider == .qld ? settings.credentials.qldToken : settings.credentials.saToken) ?? ""
                pollers.append(InformedSourcesPoller(
                    region: region, client: client(), auth: SubscriberTokenAuth(token: token), base: settings.baseURL(provider),
                    interval: settings.interval(provider), timeout: timeout))
            case .vic:
                pollers.append(VICPoller(
                    client: client(RequestBudget(limit: 10, per: 60)), auth: ConsumerIDAuth(consumerID: settings.credentials.vicConsumerID ?? ""),
                    base: settings.baseURL(.vic), interval: settings.interval(.vic), timeout: timeout))
            }
        }
        return pollers
    }

    /// The start-up line: `providers: nsw (...), wa (...); NSW key ≈38 calls/day, 1,140/month of 2,500`.
    public static func summary(_ settings: ProviderSettings, pollers: [any ProviderPoller]) -> String {
        guard !pollers.isEmpty else { return "providers: none (serving stored or sample data only; set PETTY_PROVIDERS)" }
        var line = "providers: " + pollers.map(\.plan).joined(separator: ", ")
        if let quota = nswQuota(settings) { line += "; " + quota.text }
        return line
    }

    /// Calls a day on the NSW key (NSW and TAS), and whether they fit the monthly quota.
    public static func nswQuota(_ settings: ProviderSettings) -> (perDay: Int, perMonth: Int, fits: Bool, text: String)? {
        let usesNSW = settings.enabled.contains(.nsw)
        let usesTAS = settings.enabled.contains(.tas)
        guard usesNSW || usesTAS else { return nil }
        var perDay = usesNSW ? NSWPoller.callsPerDay(interval: settings.interval(.nsw)) : 2
        if usesTAS { perDay += TASPoller.callsPerDay(interval: settings.interval(.tas)) }
        let perMonth = perDay * 30
        let fits = perMonth <= nswMonthlyQuota
        let text = "NSW key ≈\(perDay) calls/day, \(grouped(perMonth))/month of \(grouped(nswMonthlyQuota))\(fits ? "" : " (OVER QUOTA: raise PETTY_NSW_POLL_SECONDS / PETTY_TAS_POLL_SECONDS)")"
        return (perDay, perMonth, fits, text)
    }

    static func grouped(_ n: Int) -> String {
        let digits = String(n)
        var out = ""
        for (index, character) in digits.enumerated() {
            if index > 0 && (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(character)
        }
        return out
    }
}
