import Foundation

/// An alert as the evaluator holds it: its ids, what was asked, and the zone of the device it notifies (quiet hours
/// and the daily `at` are local times there).
public struct WatchedAlert: Sendable, Equatable {
    public var id: Int64
    public var deviceID: Int64
    public var definition: AlertDefinition
    public var zone: TimeZone

    public init(id: Int64, deviceID: Int64, definition: AlertDefinition, zone: TimeZone) {
        self.id = id
        self.deviceID = deviceID
        self.definition = definition
        self.zone = zone
    }
}
