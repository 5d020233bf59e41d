import Foundation
import HTTP

/// The JSON body of `POST /v1/devices`: a phone registering for alerts.
struct DeviceRegistrationParameters: EndpointParameters {
    static let operation = "POST /v1/devices"
    static let types: [String: JSONParameters.FieldType] = ["platform": .string, "push_token": .string, "time_zone": .string]

    enum Name: String, ParameterName {
        /// Required: `ios` or `android` (which push service the relay uses).
        case platform
        /// Required: the APNs or FCM token, 1 to 4,096 characters.
        case pushToken = "push_token"
        /// Required: the phone's IANA time zone (`Australia/Perth`): quiet hours and daily summaries are local.
        case timeZone = "time_zone"
    }

    let registration: DeviceRegistration

    init(_ params: QueryReader<Name>) throws {
        guard let platform = try params.choice(.platform, as: DeviceRegistration.Platform.self) else {
            throw params.bad("platform is required: ios or android")
        }
        guard let token = try params.pushToken(.pushToken) else { throw params.bad("push_token is required") }
        guard let zone = try params.timeZone(.timeZone) else { throw params.bad("time_zone is required, e.g. Australia/Perth") }
        registration = DeviceRegistration(platform: platform, pushToken: token, timeZone: zone)
    }
}

/// The JSON body of `PUT /v1/devices/{id}`: a new push token (which also revives a token the relay reported dead)
/// and/or a new time zone.
struct DeviceUpdateParameters: EndpointParameters {
    static let operation = "PUT /v1/devices/{id}"
    static let types: [String: JSONParameters.FieldType] = ["push_token": .string, "time_zone": .string]

    enum Name: String, ParameterName {
        /// The new APNs or FCM token.
        case pushToken = "push_token"
        /// The new IANA time zone.
        case timeZone = "time_zone"
    }

    let pushToken: String?
    let timeZone: String?

    init(_ params: QueryReader<Name>) throws {
        pushToken = try params.pushToken(.pushToken)
        timeZone = try params.timeZone(.timeZone)
        guard pushToken != nil || timeZone != nil else { throw params.bad("give push_token, time_zone or both") }
    }
}

extension QueryReader {
    static var maxPushTokenLength: Int { 4096 }

    func pushToken(_ name: Name) throws -> String? {
        guard let token = try string(name) else { return nil }
        guard token.utf8.count <= Self.maxPushTokenLength else {
            throw bad("\(name.rawValue) takes at most \(Self.maxPushTokenLength) characters")
        }
        return token
    }

    /// An IANA zone name the server's time zone database knows (`Australia/Perth`); abbreviations and offsets are not.
    func timeZone(_ name: Name) throws -> String? {
        guard let zone = try string(name) else { return nil }
        guard zone.utf8.count <= 64, zone.contains("/") || zone == "UTC", TimeZone(identifier: zone) != nil else {
            throw bad("\(name.rawValue) must be an IANA time zone such as Australia/Perth, got '\(zone.prefix(40))'")
        }
        return zone
    }
}
