/// The iOS app that may open share links (`PETTY_APPLE_APP_ID`: Team ID and bundle id, `ABCDE12345.au.petty.app`),
/// validated at startup so a typo fails the deploy instead of silently breaking universal links.
public struct AppleAppLink: Equatable, Sendable {
    public let appID: String

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    public init(appID: String) throws {
        let parts = appID.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let team = parts.first.map(String.init) ?? ""
        guard parts.count == 2, team.count == 10, team.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) }),
              AndroidAppLink.isPackageName(String(parts[1]))
        else {
            throw Invalid(description: "PETTY_APPLE_APP_ID must be a Team ID (10 upper-case letters or digits), a dot and the bundle id, such as ABCDE12345.au.petty.app, got '\(appID)'")
        }
        self.appID = appID
    }
}
