/// A fuel station as we serve it: our stable id plus what its provider says about it (one `StationRecord`, whose
/// fields read and write through as the station's own: `station.name`).
public struct Station: Hashable, Sendable, Identifiable {
    public var id: StationID
    public var record: StationRecord

    /// The station described by a provider record, under our id.
    public init(id: StationID, record: StationRecord) {
        self.id = id
        self.record = record
    }

    public init(
        id: StationID, key: StationKey, name: String, brand: String, address: String, suburb: String,
        state: AustralianState, postcode: String?, location: Coordinate, access: StationAccess? = nil, facts: StationFacts? = nil
    ) {
        self.init(id: id, record: StationRecord(
            key: key, name: name, brand: brand, address: address, suburb: suburb, state: state, postcode: postcode,
            location: location, access: access, facts: facts))
    }

    // Forwarded field by field (not through a key-path subscript) so every module reads them as plain loads.
    @inlinable public var key: StationKey { get { record.key } set { record.key = newValue } }
    @inlinable public var name: String { get { record.name } set { record.name = newValue } }
    @inlinable public var brand: String { get { record.brand } set { record.brand = newValue } }
    @inlinable public var address: String { get { record.address } set { record.address = newValue } }
    @inlinable public var suburb: String { get { record.suburb } set { record.suburb = newValue } }
    @inlinable public var state: AustralianState { get { record.state } set { record.state = newValue } }
    @inlinable public var postcode: String? { get { record.postcode } set { record.postcode = newValue } }
    @inlinable public var location: Coordinate { get { record.location } set { record.location = newValue } }
    @inlinable public var access: StationAccess? { get { record.access } set { record.access = newValue } }
    @inlinable public var facts: StationFacts? { get { record.facts } set { record.facts = newValue } }

    public var provider: ProviderID { record.key.provider }
    public var sourceID: String { record.key.sourceID }
}

extension Station: Codable {
    private enum CodingKeys: String, CodingKey { case id }

    // One flat object, `id` beside the record's fields, as the stored shape has always been.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try container.decode(StationID.self, forKey: .id), record: try StationRecord(from: decoder))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try record.encode(to: encoder)
    }
}
