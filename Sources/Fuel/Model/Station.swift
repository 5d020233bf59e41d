/// A fuel station as we serve it: our stable id plus what its provider says about it.
public struct Station: Hashable, Codable, Sendable, Identifiable {
    public var id: StationID
    public var key: StationKey
    public var name: String
    public var brand: String
    public var address: String
    public var suburb: String
    public var state: AustralianState
    public var postcode: String?
    public var location: Coordinate
    /// Opening hours and access flags, where the provider publishes them.
    public var access: StationAccess?

    public init(
        id: StationID, key: StationKey, name: String, brand: String, address: String, suburb: String,
        state: AustralianState, postcode: String?, location: Coordinate, access: StationAccess? = nil
    ) {
        self.id = id
        self.key = key
        self.name = name
        self.brand = brand
        self.address = address
        self.suburb = suburb
        self.state = state
        self.postcode = postcode
        self.location = location
        self.access = access
    }

    /// The station described by a provider record, under our id.
    public init(id: StationID, record: StationRecord) {
        self.init(
            id: id, key: record.key, name: record.name, brand: record.brand, address: record.address,
            suburb: record.suburb, state: record.state, postcode: record.postcode, location: record.location,
            access: record.access)
    }

    public var provider: ProviderID { key.provider }
    public var sourceID: String { key.sourceID }
}
