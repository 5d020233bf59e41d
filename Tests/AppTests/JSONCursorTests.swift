import Testing
@testable import API

/// A list body is written in place into room sized in advance. A guess that falls short must cost a second
/// writing, never a short or corrupt body.
@Suite struct JSONCursorTests {
    func writeSample(_ json: inout some JSONOutput, items: Int) {
        json.raw("{\"data\":[")
        for index in 0..<items {
            if index > 0 { json.raw(",") }
            json.raw("{\"id\":")
            json.int(index)
            json.raw(",\"distance_km\":")
            json.decimal(Double(index) * 1.005, places: 2)
            json.raw(",\"fill_cost\":")
            json.hundredths(ofInteger: 6_000 - index * 7)
            json.raw(",\"open_now\":")
            json.bool(index % 2 == 0)
            json.raw("}")
        }
        json.raw("]}")
    }

    func expected(items: Int) -> [UInt8] {
        var writer = JSONWriter()
        writeSample(&writer, items: items)
        return writer.bytes
    }

    @Test(arguments: [0, 1, 2, 10, 500])
    func anyRoomGivesTheBytesTheArrayWriterWrites(_ items: Int) {
        let whole = expected(items: items)
        for room in [0, 1, 63, 64, whole.count - 1, whole.count, whole.count + 1, whole.count * 3] {
            var writings = 0
            let body = JSONCursor.build(capacity: room) { json in
                writings += 1
                writeSample(&json, items: items)
            }
            #expect(body == whole, "\(items) items in \(room) bytes")
            // Enough room is written once; too little, again with more.
            if room >= whole.count { #expect(writings == 1) }
        }
    }

    @Test func whatWasWrittenCanBeReadBackForHashing() {
        _ = JSONCursor.build(capacity: 128) { json in
            json.raw("{\"a\":")
            let start = json.count
            json.hundredths(ofInteger: -1_234)
            #expect(Array(json.written(from: start)) == Array("-12.34".utf8))
        }
    }
}
