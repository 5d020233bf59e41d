import Fuel

/// One row of `GET /v1/fuels`.
struct FuelListingDTO: Codable, Sendable {
    var fuel: String
    var fuelName: String
    var states: [String]
    var stationCount: Int

    init(_ listing: FuelListing) {
        fuel = listing.fuel.rawValue
        fuelName = listing.fuel.displayName
        states = listing.states.map(\.rawValue)
        stationCount = listing.stationCount
    }
}

/// One row of `GET /v1/brands`.
struct BrandListingDTO: Codable, Sendable {
    var brand: String
    /// The brand family's slug (`BrandFamily`), for logo assets: several brands may share one.
    var brandKey: String
    var stationCount: Int

    init(_ listing: BrandListing) {
        brand = listing.brand
        brandKey = BrandFamily.key(of: listing.brand)
        stationCount = listing.stationCount
    }
}
