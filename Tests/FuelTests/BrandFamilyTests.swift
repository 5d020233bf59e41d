import Testing

@testable import Fuel

/// Issue 48 §13: one `brand_key` per brand family.
@Suite struct BrandFamilyTests {
    @Test func retailNamesMapToTheirFamily() {
        #expect(BrandFamily.key(of: "Reddy Express") == "shell")
        #expect(BrandFamily.key(of: "Shell") == "shell")
        #expect(BrandFamily.key(of: "Coles Express") == "shell")
        #expect(BrandFamily.key(of: "Metro Fuel") == "metro")
        #expect(BrandFamily.key(of: "Metro Petroleum") == "metro")
        #expect(BrandFamily.key(of: "EG Ampol") == "ampol")
        #expect(BrandFamily.key(of: "Ampol Foodary") == "ampol")
        #expect(BrandFamily.key(of: "7-Eleven") == "7-eleven")
        #expect(BrandFamily.key(of: "  BP ") == "bp")
        #expect(BrandFamily.key(of: "Bangalow General Store") == "bangalow-general-store")
        #expect(BrandFamily.key(of: "") == "unbranded")
        #expect(BrandFamily.key(of: "Fuel") == "fuel")
    }
}
