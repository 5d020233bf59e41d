/// `brand_key`: a stable slug per brand family, for an app's logo assets. Retail names a network trades under map to
/// its family (Reddy Express and Coles Express are Shell's, EG Ampol and Ampol Foodary are Ampol's, Metro Fuel and
/// Metro Petroleum are Metro's); any other brand is its own slug: lower-case ASCII letters and digits, runs of
/// anything else one `-`, and a trailing generic word (fuel, fuels, petroleum, energy, oil, group, retail) dropped.
public enum BrandFamily {
    /// Slugs of retail names, to their family's key.
    static let families: [String: String] = [
        "reddy-express": "shell", "coles-express": "shell", "shell-coles-express": "shell", "viva": "shell",
        "ampol-foodary": "ampol", "ampol-breeze": "ampol", "eg-ampol": "ampol", "ebm-ampol": "ampol",
        "caltex-woolworths": "caltex", "caltex-star-mart": "caltex", "star-mart": "caltex",
        "united-petroleum": "united", "united-convenience": "united",
        "mobil-1-carlingford-car-care": "mobil", "7eleven": "7-eleven", "seven-eleven": "7-eleven",
        "bp-connect": "bp", "puma-energy": "puma", "liberty-oil": "liberty",
    ]

    private static let genericTails: Set<String> = ["fuel", "fuels", "petroleum", "energy", "oil", "group", "retail"]

    /// The family key of `brand`; `unbranded` for a brand with no letters or digits (or none).
    public static func key(of brand: String) -> String {
        let slug = slug(brand)
        guard !slug.isEmpty else { return "unbranded" }
        if let family = families[slug] { return family }
        var words = slug.split(separator: "-").map(String.init)
        if words.count > 1, genericTails.contains(words[words.count - 1]) { words.removeLast() }
        let trimmed = words.joined(separator: "-")
        return families[trimmed] ?? capped(trimmed)
    }

    /// At most `maxLength` characters, cut after a whole word where one ends in time.
    public static let maxLength = 40

    static func capped(_ slug: String) -> String {
        guard slug.utf8.count > maxLength else { return slug }
        var cut = String(slug.prefix(maxLength))
        while cut.hasSuffix("-") { cut.removeLast() }
        return cut
    }

    static func slug(_ text: String) -> String {
        var out: [UInt8] = []
        var gap = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let byte: UInt8?
            switch value {
            case 0x30...0x39, 0x61...0x7A: byte = UInt8(value)
            case 0x41...0x5A: byte = UInt8(value) | 0x20
            default: byte = nil
            }
            if let byte {
                if gap && !out.isEmpty { out.append(0x2D) }
                out.append(byte)
                gap = false
            } else {
                gap = true
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension Station {
    /// `BrandFamily.key(of: brand)`.
    public var brandKey: String { BrandFamily.key(of: brand) }
}
