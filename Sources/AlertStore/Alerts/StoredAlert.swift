import Fuel

/// An alert as stored: its ids and what was asked.
public struct StoredAlert: Sendable, Equatable {
    public var id: Int64
    public var deviceID: Int64
    public var definition: AlertDefinition

    public init(id: Int64, deviceID: Int64, definition: AlertDefinition) {
        self.id = id
        self.deviceID = deviceID
        self.definition = definition
    }
}
