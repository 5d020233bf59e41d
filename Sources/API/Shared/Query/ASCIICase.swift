extension StringProtocol {
    /// Upper case for the ASCII letters alone. A code given in any case (`nsw`, `u91`) is found, and no letter of
    /// another script becomes one: Unicode upper-cases `ſ` (long s) to `S`, so `nſw` would pass as NSW.
    var asciiUppercased: String {
        String(decoding: utf8.map { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) ? $0 - 0x20 : $0 }, as: UTF8.self)
    }

    /// Lower case for the ASCII letters alone (the Kelvin sign `K` lower-cases to `k` in Unicode).
    var asciiLowercased: String {
        String(decoding: utf8.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
    }
}
