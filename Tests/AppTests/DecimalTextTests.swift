import Testing
@testable import API

/// `DecimalText` computes plain decimals itself: every value must be the one `Double(_:)` gives the trimmed text,
/// to the bit, and everything else must still be read (or refused) as `Double(_:)` does.
@Suite struct DecimalTextTests {
    func agrees(_ text: String) -> Bool {
        let expected = Double(text.trimmedSpaces)
        let actual = DecimalText.double(text)
        return expected?.bitPattern == actual?.bitPattern
    }

    @Test(arguments: [
        "-33.8688", "151.2093", "5", "0.1", "250", "-0", "0", "+5", "-0.0", "00012.5000", " 5", "5 ", "\t-33.8688\t",
        "1e1", "5.", ".5", "-", "+", "", " ", "1.2.3", "0x10", "nan", "inf", "-infinity", "1,5", "5km", "--5",
        "9007199254740992", "9007199254740993", "0.30000000000000004", "1234567890123456789012345",
        "0.0000000000000000000001", "0.00000000000000000000001", "-90.000000000000000000000", "179.99999999999999",
        "4.9406564584124654e-324", "1e-400", "1e400",
    ])
    func readsAsDoubleDoes(_ text: String) {
        #expect(agrees(text), "\(text)")
    }

    @Test func randomCoordinatesAgreeToTheBit() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let places = Int.random(in: 0...17, using: &generator)
            let whole = Int.random(in: -180...180, using: &generator)
            var text = String(whole)
            if places > 0 {
                text += "." + String((0..<places).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
            }
            #expect(agrees(text), "\(text)")
        }
    }

    @Test func aNearPointIsReadWhole() throws {
        #expect(DecimalText.double("-33.8673"[...]) == -33.8673)
        #expect(DecimalText.double("151.2130") == 151.2130)
        #expect(DecimalText.double("1.5e") == nil)
    }
}
