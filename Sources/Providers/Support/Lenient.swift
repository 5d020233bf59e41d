/// An optional extra that must never cost the row it sits in: a value of the wrong shape decodes as nil
/// (opening hours and access flags are nice to have; the station and its prices are not).
struct Lenient<Value: Decodable>: Decodable {
    let value: Value?

    init(from decoder: Decoder) throws {
        value = try? decoder.singleValueContainer().decode(Value.self)
    }
}
