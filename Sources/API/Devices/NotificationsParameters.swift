import HTTP

/// `GET /v1/devices/{id}/notifications`: the in-app inbox, most recently sent first.
struct NotificationsParameters: EndpointParameters {
    static let operation = "/v1/devices/{id}/notifications"

    enum Name: String, ParameterName {
        /// Only notifications sent after the one with this id (the first the app was shown last time); default 0,
        /// all of the last 100.
        case after
    }

    let afterID: Int64

    init(_ params: QueryReader<Name>) throws {
        afterID = Int64(try params.int(.after, in: 0...999_999_999_999, default: 0))
    }
}

/// `GET /v1/devices/{id}/alerts`: takes no query parameters.
struct DeviceAlertsParameters: EndpointParameters {
    static let operation = "/v1/devices/{id}/alerts"
    typealias Name = NoParameter
    init(_ params: QueryReader<Name>) throws {}
}

/// `GET /v1/devices/{id}/alerts/{alert_id}`: takes no query parameters.
struct DeviceAlertParameters: EndpointParameters {
    static let operation = "/v1/devices/{id}/alerts/{alert_id}"
    typealias Name = NoParameter
    init(_ params: QueryReader<Name>) throws {}
}
