import Foundation
import Fuel

/// One station and its prices in the snapshot file, written and read field by field in the same order.
extension SnapshotCodec {
    static func encode(_ entry: StationEntry, into out: inout ByteWriter, encoder: JSONEncoder) throws {
        let station = entry.station
        out.u64(UInt64(bitPattern: Int64(station.id.rawValue)))
        out.string(station.provider.rawValue)
        out.string(station.sourceID)
        out.string(station.name)
        out.string(station.brand)
        out.string(station.address)
        out.string(station.suburb)
        out.string(station.state.rawValue)
        out.optionalString(station.postcode)
        out.double(station.location.latitude)
        out.double(station.location.longitude)
        // A flag byte: 1 for an access blob, 2 for a facts blob (both: 3), each blob following in that order.
        out.bytes.append((station.access == nil ? 0 : 1) | (station.record.facts == nil ? 0 : 2))
        if let access = station.access { out.blob(Array(try encoder.encode(access))) }
        if let facts = station.record.facts { out.blob(Array(try encoder.encode(facts))) }
        out.u32(UInt32(entry.prices.count))
        for price in entry.prices {
            out.string(price.fuel.rawValue)
            out.u64(UInt64(bitPattern: Int64(price.price.tenths)))
            out.double(price.updatedAt.timeIntervalSince1970)
            out.optionalDate(price.seenAt)
            if let tomorrow = price.tomorrow {
                out.bytes.append(1)
                out.u64(UInt64(bitPattern: Int64(tomorrow.price.tenths)))
                out.string(tomorrow.day)
            } else {
                out.bytes.append(0)
            }
        }
    }

    /// `hasAccess`: whether the file's version carries the access and facts flag byte (version 1 does not).
    static func decodeEntry(_ input: inout ByteReader, hasAccess: Bool, decoder: JSONDecoder) throws -> StationEntry {
        let id = Int(Int64(bitPattern: try input.u64()))
        try LoadLimits.check(id: id)
        guard let provider = ProviderID(rawValue: try input.string()) else { throw Malformed(description: "unknown provider") }
        let key = StationKey(provider: provider, sourceID: try input.string())
        let name = try input.string(), brand = try input.string(), address = try input.string(), suburb = try input.string()
        guard let state = AustralianState(rawValue: try input.string()) else { throw Malformed(description: "unknown state") }
        let postcode = try input.optionalString()
        let location = Coordinate(latitude: try input.double(), longitude: try input.double())
        try LoadLimits.check(location)
        let (access, facts) = hasAccess ? try decodeAccessAndFacts(&input, decoder: decoder) : (nil, nil)
        let priceCount = Int(try input.u32())
        guard priceCount <= LoadLimits.maxPricesPerStation else { throw Malformed(description: "implausible price count \(priceCount)") }
        var prices: [StationPrice] = []
        prices.reserveCapacity(priceCount)
        for _ in 0..<priceCount { prices.append(try decodePrice(&input)) }
        let station = Station(
            id: StationID(id), key: key, name: name, brand: brand, address: address, suburb: suburb,
            state: state, postcode: postcode, location: location, access: access, facts: facts)
        return StationEntry(station: station, prices: prices)
    }

    private static func decodeAccessAndFacts(_ input: inout ByteReader, decoder: JSONDecoder) throws -> (StationAccess?, StationFacts?) {
        var access: StationAccess?
        var facts: StationFacts?
        let flags = try input.byte()
        guard flags <= 3 else { throw Malformed(description: "bad access flag") }
        if flags & 1 != 0 {
            let blob = try input.blob()
            guard blob.count <= 4_096 else { throw Malformed(description: "implausible access size") }
            // `WeeklyHours` and `DayHours` check their own ranges while decoding.
            access = try decoder.decode(StationAccess.self, from: Data(blob))
        }
        if flags & 2 != 0 {
            let blob = try input.blob()
            guard blob.count <= 256 else { throw Malformed(description: "implausible facts size") }
            facts = try decoder.decode(StationFacts.self, from: Data(blob))
        }
        return (access, facts)
    }

    private static func decodePrice(_ input: inout ByteReader) throws -> StationPrice {
        guard let fuel = FuelType(rawValue: try input.string()) else { throw Malformed(description: "unknown fuel") }
        let tenths = Int(Int64(bitPattern: try input.u64()))
        try LoadLimits.check(price: tenths)
        let updatedAt = Date(timeIntervalSince1970: try input.double())
        try LoadLimits.check(instant: updatedAt.timeIntervalSince1970, "price time")
        let seenAt = try input.optionalDate()
        var tomorrow: TomorrowPrice?
        switch try input.byte() {
        case 0: break
        case 1:
            let tomorrowTenths = Int(Int64(bitPattern: try input.u64()))
            try LoadLimits.check(price: tomorrowTenths)
            let day = try input.string()
            try LoadLimits.check(CalendarDay(day) != nil, "tomorrow day")
            tomorrow = TomorrowPrice(price: PriceTenths(tenths: tomorrowTenths), day: day)
        default: throw Malformed(description: "bad tomorrow flag")
        }
        return StationPrice(fuel: fuel, price: PriceTenths(tenths: tenths), updatedAt: updatedAt, tomorrow: tomorrow, seenAt: seenAt)
    }
}
