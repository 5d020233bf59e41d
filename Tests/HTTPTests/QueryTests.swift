import Testing
@testable import HTTP

@Suite("Decoding query strings")
struct QueryTests {
    @Test("Repeated keys are kept in order, + is a space and %XX is decoded")
    func decodesPairs() {
        let query = URLQuery("a=1&a=2&b=x+y&c=%41")
        #expect(query.items.map(\.name) == ["a", "a", "b", "c"])
        #expect(query.items.map(\.value) == ["1", "2", "x y", "A"])
        #expect(query["a"] == "1")
        #expect(query.values(for: "a") == ["1", "2"])
        #expect(query["b"] == "x y")
        #expect(query["c"] == "A")
        #expect(query.keys == ["a", "b", "c"])
        #expect(query["missing"] == nil)
        #expect(query.values(for: "missing") == [])
    }

    @Test("A key without = has an empty value and is contained")
    func flagWithoutValue() {
        let query = URLQuery("flag&x=1")
        #expect(query.contains("flag"))
        #expect(query["flag"] == "")
        #expect(!query.contains("y"))
    }

    @Test("Empty and missing queries have no items")
    func emptyQuery() {
        #expect(URLQuery(nil).isEmpty)
        #expect(URLQuery("").items.isEmpty)
        #expect(URLQuery("&&").items.isEmpty)
        #expect(URLQuery(nil).keys == [])
    }

    @Test("A pair with an empty name is kept")
    func emptyName() {
        let query = URLQuery("=v")
        #expect(query.items.count == 1)
        #expect(query[""] == "v")
    }

    @Test("Only the first = splits name from value")
    func valueWithEquals() {
        #expect(URLQuery("expr=a=b")["expr"] == "a=b")
        #expect(URLQuery("k=")["k"] == "")
    }

    @Test("Invalid percent escapes are kept literally")
    func invalidEscapesKept() {
        let query = URLQuery("a=%zz&b=100%&c=%4&d=%2")
        #expect(query["a"] == "%zz")
        #expect(query["b"] == "100%")
        #expect(query["c"] == "%4")
        #expect(query["d"] == "%2")
    }

    @Test("Encoded names, UTF-8 and encoded separators decode correctly")
    func encodedNamesAndSeparators() {
        let query = URLQuery("na%6De=caf%C3%A9&x=a%26b%3Dc&p=%2B1")
        #expect(query["name"] == "café")
        #expect(query["x"] == "a&b=c")
        #expect(query["p"] == "+1")
    }

    @Test("Bytes that are not UTF-8 become the replacement character")
    func invalidUTF8() {
        #expect(URLQuery("a=%FF")["a"] == "\u{FFFD}")
    }

    @Test("The request head exposes its query decoded")
    func headQuery() {
        let head = parse("GET /s?fuel=U91&fuel=E10&near=-33.8,151.2 HTTP/1.1\r\nHost: a\r\n\r\n").head
        #expect(head?.query.values(for: "fuel") == ["U91", "E10"])
        #expect(head?.query["near"] == "-33.8,151.2")
    }
}
