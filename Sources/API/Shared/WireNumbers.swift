import Foundation
import Fuel

/// One price as clients see it: cents per litre with one decimal (189.9).
struct CentsValue: Codable, Sendable, Hashable {
    let tenths: PriceTenths

    init(_ tenths: PriceTenths) { self.tenths = tenths }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Decimal(tenths.tenths) / 10)
    }

    init(from decoder: Decoder) throws {
        let value = try decoder.singleValueContainer().decode(Double.self)
        tenths = PriceTenths(cents: value)
    }
}

/// A rounded decimal for averages and distances (two places).
struct Rounded: Codable, Sendable, Hashable {
    let value: Double

    init(_ value: Double, places: Int = 2) {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        self.value = (value * scale).rounded() / scale
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(Decimal(string: String(value)) ?? Decimal(value))
    }

    init(from decoder: Decoder) throws {
        value = try decoder.singleValueContainer().decode(Double.self)
    }
}
