import Foundation
import Fuel

extension ProviderSettings {
    /// Parses `PETTY_PROVIDERS`, credentials, base URLs and intervals. Errors name the variable at fault and,
    /// for credentials, never echo a value.
    public static func fromEnvironment(_ env: [String: String], userAgent: String? = nil) throws(ProviderSettingsError) -> ProviderSettings {
        func value(_ name: String) -> String? {
            guard let raw = env[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !raw.isEmpty else { return nil }
            return raw
        }
        let credentials = Credentials(
            nswAPIKey: value("PETTY_NSW_API_KEY"), nswAPISecret: value("PETTY_NSW_API_SECRET"),
            qldToken: value("PETTY_QLD_TOKEN"), saToken: value("PETTY_SA_TOKEN"), vicConsumerID: value("PETTY_VIC_CONSUMER_ID"))

        let explicit = value("PETTY_PROVIDERS")
        var enabled: [ProviderID] = []
        if let explicit {
            let names = explicit.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
            if names == ["none"] {
                enabled = []
            } else {
                for name in names {
                    guard let provider = ProviderID(rawValue: name) else {
                        let valid = ProviderID.allCases.map(\.rawValue).joined(separator: ", ")
                        throw ProviderSettingsError("PETTY_PROVIDERS: unknown provider '\(name)'; valid: \(valid), or none alone")
                    }
                    enabled.append(provider)
                }
            }
        }
        // Credentials: named providers must have them; by default a provider is on when they are complete.
        for provider in ProviderID.allCases {
            let missing = missingVariables(for: provider, credentials)
            let required = requiredVariables(for: provider)
            if explicit != nil {
                if enabled.contains(provider), let first = missing.first {
                    throw ProviderSettingsError("PETTY_PROVIDERS includes \(provider.rawValue) but \(first) is not set")
                }
            } else if required.isEmpty || missing.isEmpty {
                enabled.append(provider)
            } else if missing.count < required.count {
                throw ProviderSettingsError("\(provider.rawValue) is partly configured: \(missing.joined(separator: ", ")) is not set")
            }
        }

        var baseURLs: [ProviderID: URL] = [:]
        for (name, providers) in [("NSW", [ProviderID.nsw, .tas]), ("WA", [.wa]), ("QLD", [.qld]), ("SA", [.sa]), ("VIC", [.vic])] {
            let variable = "PETTY_\(name)_BASE_URL"
            guard let raw = value(variable) else { continue }
            let url = try baseURL(raw, variable: variable)
            for provider in providers { baseURLs[provider] = url }
        }

        var intervals: [ProviderID: TimeInterval] = [:]
        for provider in ProviderID.allCases {
            let variable = "PETTY_\(provider.rawValue.uppercased())_POLL_SECONDS"
            guard let raw = value(variable) else { continue }
            let minimum = Int(minimumIntervals[provider]!)
            guard let seconds = Int(raw), seconds > 0 else {
                throw ProviderSettingsError("\(variable) must be a positive whole number of seconds, got '\(raw)'")
            }
            guard seconds >= minimum else {
                throw ProviderSettingsError("\(variable) must be at least \(minimum) seconds, got \(seconds)")
            }
            intervals[provider] = TimeInterval(seconds)
        }

        var timeout: TimeInterval = 30
        if let raw = value("PETTY_PROVIDER_TIMEOUT_SECONDS") {
            guard let seconds = Double(raw), seconds > 0, seconds <= 600 else {
                throw ProviderSettingsError("PETTY_PROVIDER_TIMEOUT_SECONDS must be a number of seconds from 0 to 600, got '\(raw)'")
            }
            timeout = seconds
        }

        var settings = ProviderSettings(enabled: enabled, credentials: credentials, baseURLs: baseURLs, intervals: intervals, requestTimeout: timeout)
        if let userAgent { settings.userAgent = userAgent }
        return settings
    }

    static func requiredVariables(for provider: ProviderID) -> [String] {
        switch provider {
        case .nsw, .tas: ["PETTY_NSW_API_KEY", "PETTY_NSW_API_SECRET"]
        case .wa: []
        case .qld: ["PETTY_QLD_TOKEN"]
        case .sa: ["PETTY_SA_TOKEN"]
        case .vic: ["PETTY_VIC_CONSUMER_ID"]
        }
    }

    static func missingVariables(for provider: ProviderID, _ credentials: Credentials) -> [String] {
        let values: [String: String?] = [
            "PETTY_NSW_API_KEY": credentials.nswAPIKey, "PETTY_NSW_API_SECRET": credentials.nswAPISecret,
            "PETTY_QLD_TOKEN": credentials.qldToken, "PETTY_SA_TOKEN": credentials.saToken,
            "PETTY_VIC_CONSUMER_ID": credentials.vicConsumerID,
        ]
        return requiredVariables(for: provider).filter { (values[$0] ?? nil) == nil }
    }

    /// A scheme (http/https) and host, optional port and path prefix; no query, fragment or user info.
    static func baseURL(_ raw: String, variable: String) throws(ProviderSettingsError) -> URL {
        guard let components = URLComponents(string: raw), let scheme = components.scheme?.lowercased() else {
            throw ProviderSettingsError("\(variable) is not a URL: '\(raw)'")
        }
        guard scheme == "http" || scheme == "https" else {
            throw ProviderSettingsError("\(variable) must be an http or https URL, got scheme '\(scheme)'")
        }
        guard let host = components.host, !host.isEmpty else { throw ProviderSettingsError("\(variable) has no host: '\(raw)'") }
        guard components.query == nil, components.fragment == nil else {
            throw ProviderSettingsError("\(variable) must not have a query or fragment (paths are appended to it)")
        }
        guard components.user == nil, components.password == nil else {
            throw ProviderSettingsError("\(variable) must not carry user info; use the credential variables")
        }
        var clean = components
        while clean.path.hasSuffix("/") { clean.path.removeLast() }
        guard let url = clean.url else { throw ProviderSettingsError("\(variable) is not a URL: '\(raw)'") }
        return url
    }
}
