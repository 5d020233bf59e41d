/// One push to one phone.
public struct PushMessage: Sendable, Equatable {
    public enum Platform: Int, Sendable {
        case ios = 1
        case android = 2
    }

    public var token: String
    public var platform: Platform
    public var title: String
    public var message: String
    /// APNs `collapse_id` / FCM `collapse_key`: a resend of the same decision shows once.
    public var collapseID: String
    public var data: PushData

    public init(token: String, platform: Platform, title: String, message: String, collapseID: String, data: PushData) {
        self.token = token
        self.platform = platform
        self.title = title
        self.message = message
        self.collapseID = collapseID
        self.data = data
    }
}

/// The `data` an app reads when the push is opened.
public struct PushData: Sendable, Equatable {
    public var alertID: Int64
    public var stationID: Int
    public var fuel: String
    /// Cents per litre, one decimal.
    public var price: Double
    /// The station's share link.
    public var url: String

    public init(alertID: Int64, stationID: Int, fuel: String, price: Double, url: String) {
        self.alertID = alertID
        self.stationID = stationID
        self.fuel = fuel
        self.price = price
        self.url = url
    }
}

/// What may be said of a token in a log line: its last 6 characters.
public enum TokenRedaction {
    public static func tail(_ token: String) -> String { "…" + String(token.suffix(6)) }
}
