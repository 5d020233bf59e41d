import Testing
@testable import HTTP

@Suite("Classifying bytes for the parser")
struct ParserASCIITests {
    @Test("The tchar bitmasks match RFC 9110's spelled-out set for every byte")
    func tcharMatchesSet() {
        let tchar = Set("!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
        for byte in UInt8.min...UInt8.max {
            #expect(ASCII.isTchar(byte) == tchar.contains(byte), "byte \(byte)")
        }
    }

    @Test("Visible and field-value classes exclude controls and DEL")
    func visibleAndFieldValue() {
        for byte in UInt8.min...UInt8.max {
            #expect(ASCII.isVisible(byte) == (byte >= 0x21 && byte <= 0x7E), "byte \(byte)")
            #expect(ASCII.isFieldValueByte(byte) == (byte == 0x09 || (byte >= 0x20 && byte != 0x7F)), "byte \(byte)")
        }
    }

    @Test("Hex digits decode in both cases and nothing else does")
    func hexDigits() {
        #expect(ASCII.hexValue(UInt8(ascii: "0")) == 0)
        #expect(ASCII.hexValue(UInt8(ascii: "a")) == 10)
        #expect(ASCII.hexValue(UInt8(ascii: "F")) == 15)
        #expect(ASCII.hexValue(UInt8(ascii: "g")) == nil)
        #expect(ASCII.hexValue(UInt8(ascii: "x")) == nil)
    }
}
