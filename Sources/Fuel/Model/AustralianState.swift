import Foundation

/// An Australian state or territory. Raw values are the abbreviations used in the API (`state=NSW`).
public enum AustralianState: String, CaseIterable, Codable, Sendable, Comparable {
    case NSW, ACT, VIC, QLD, SA, WA, TAS, NT

    /// The zone whose calendar day buckets this state's trends and local times.
    public var timeZoneIdentifier: String {
        switch self {
        case .NSW: "Australia/Sydney"
        case .ACT: "Australia/Sydney"
        case .VIC: "Australia/Melbourne"
        case .QLD: "Australia/Brisbane"
        case .SA: "Australia/Adelaide"
        case .WA: "Australia/Perth"
        case .TAS: "Australia/Hobart"
        case .NT: "Australia/Darwin"
        }
    }

    public var timeZone: TimeZone { TimeZone(identifier: timeZoneIdentifier)! }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
