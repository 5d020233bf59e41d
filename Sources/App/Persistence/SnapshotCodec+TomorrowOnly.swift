import Fuel

/// The optional last section of every version (`tomorrowOnlyTag`): prices for tomorrow at stations with none today.
extension SnapshotCodec {
    static func encodeTomorrowOnly(_ entries: [StationEntry], into out: inout ByteWriter) {
        let holding = entries.indices.filter { !entries[$0].tomorrowOnly.isEmpty }
        guard !holding.isEmpty else { return }
        out.bytes.append(contentsOf: tomorrowOnlyTag)
        out.u32(UInt32(holding.count))
        for index in holding {
            out.u32(UInt32(index))
            out.u32(UInt32(entries[index].tomorrowOnly.count))
            for only in entries[index].tomorrowOnly {
                out.string(only.fuel.rawValue)
                out.u64(UInt64(bitPattern: Int64(only.tomorrow.price.tenths)))
                out.string(only.tomorrow.day)
            }
        }
    }

    static func decodeTomorrowOnly(_ input: inout ByteReader, into entries: inout [StationEntry]) throws {
        guard !input.isAtEnd else { return }
        guard try input.take(tomorrowOnlyTag.count) == tomorrowOnlyTag[...] else { throw Malformed(description: "trailing bytes") }
        let count = Int(try input.u32())
        guard count <= entries.count else { throw Malformed(description: "implausible tomorrow-only count \(count)") }
        for _ in 0..<count {
            let index = Int(try input.u32())
            guard entries.indices.contains(index), entries[index].tomorrowOnly.isEmpty else { throw Malformed(description: "bad tomorrow-only station") }
            let priceCount = Int(try input.u32())
            guard (1...LoadLimits.maxPricesPerStation).contains(priceCount) else { throw Malformed(description: "implausible tomorrow-only price count") }
            var prices: [TomorrowOnlyPrice] = []
            for _ in 0..<priceCount {
                guard let fuel = FuelType(rawValue: try input.string()) else { throw Malformed(description: "unknown fuel") }
                let tenths = Int(Int64(bitPattern: try input.u64()))
                try LoadLimits.check(price: tenths)
                let day = try input.string()
                try LoadLimits.check(CalendarDay(day) != nil, "tomorrow day")
                guard entries[index].price(of: fuel) == nil, !prices.contains(where: { $0.fuel == fuel }) else {
                    throw Malformed(description: "tomorrow-only price for a priced or repeated fuel")
                }
                prices.append(TomorrowOnlyPrice(fuel: fuel, tomorrow: TomorrowPrice(price: PriceTenths(tenths: tenths), day: day)))
            }
            let entry = entries[index]
            entries[index] = StationEntry(station: entry.station, prices: entry.prices, tomorrowOnly: prices)
        }
    }
}
