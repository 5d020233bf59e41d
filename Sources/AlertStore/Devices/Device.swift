/// A phone that receives alerts. Its secret is never stored, only its SHA-256.
public struct Device: Sendable, Equatable {
    public enum Platform: String, Sendable, CaseIterable {
        case ios, android
    }

    public var id: Int64
    public var platform: Platform
    public var pushToken: String
    public var timeZone: String
    /// The relay reported the token dead: no pushes until the app sends a new one.
    public var tokenDead: Bool

    public init(id: Int64, platform: Platform, pushToken: String, timeZone: String, tokenDead: Bool = false) {
        self.id = id
        self.platform = platform
        self.pushToken = pushToken
        self.timeZone = timeZone
        self.tokenDead = tokenDead
    }
}
