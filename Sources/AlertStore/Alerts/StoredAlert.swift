import Foundation
import Fuel

/// An alert as stored: its ids and what was asked.
public struct StoredAlert: Sendable, Equatable {
    public var id: Int64
    public var deviceID: Int64
    public var definition: AlertDefinition
    /// When the row was inserted (the database's clock), as the API shows it.
    public var createdAt: Date?

    public init(id: Int64, deviceID: Int64, definition: AlertDefinition, createdAt: Date? = nil) {
        self.id = id
        self.deviceID = deviceID
        self.definition = definition
        self.createdAt = createdAt
    }
}
