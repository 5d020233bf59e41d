/// Queues a response's head and body for one connection; they leave together in one `sendmsg`.
enum ResponseSerializer {
    /// - Parameters:
    ///   - includeBody: false for HEAD (the head still says how long the body would be).
    ///   - keepAlive: whether the connection stays open after this response.
    static func write(
        _ response: Response, version: HTTPVersion, includeBody: Bool, keepAlive: Bool,
        date: [UInt8], serverName: [UInt8], into queue: inout OutboundQueue
    ) {
        queue.appendInline { buffer in
            writeHead(response, version: version, keepAlive: keepAlive, date: date, serverName: serverName, into: &buffer)
        }
        if includeBody && !response.status.forbidsBody {
            queue.append(body: response.body)
        }
    }

    static func writeHead(
        _ response: Response, version: HTTPVersion, keepAlive: Bool, date: [UInt8], serverName: [UInt8],
        into buffer: inout [UInt8]
    ) {
        let copiedBody = response.body.count < OutboundQueue.sharedBodyBytes ? response.body.count : 0
        let needed = buffer.count + 160 + response.headers.count * 40 + copiedBody
        // Geometric growth: pipelined responses append to the same buffer.
        if needed > buffer.capacity { buffer.reserveCapacity(max(needed, buffer.capacity * 2)) }
        // Literals and the server's byte arrays are appended from their storage in place: through `append(contentsOf:)`
        // each is a generic sequence append with a retain and a release, a dozen per response.
        append("HTTP/1.1 ", to: &buffer)
        appendDecimal(response.status.code, to: &buffer)
        buffer.append(0x20)
        appendUTF8(response.status.reasonPhrase, to: &buffer)
        append("\r\n", to: &buffer)
        // Each field read in place: a `for (name, value)` loop copies both strings, a retain and a release each.
        let fields = response.headers.fields
        for index in fields.indices where !isServerManaged(fields[index].name) {
            appendUTF8(fields[index].name, to: &buffer)
            append(": ", to: &buffer)
            appendUTF8(fields[index].value, to: &buffer)
            append("\r\n", to: &buffer)
        }
        if !response.status.forbidsBody {
            append("Content-Length: ", to: &buffer)
            appendDecimal(response.body.count, to: &buffer)
            append("\r\n", to: &buffer)
        }
        append("Date: ", to: &buffer)
        date.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
        append("\r\nServer: ", to: &buffer)
        serverName.withUnsafeBufferPointer { buffer.append(contentsOf: $0) }
        append("\r\n", to: &buffer)
        if !keepAlive {
            append("Connection: close\r\n", to: &buffer)
        } else if version.minor == 0 {
            append("Connection: keep-alive\r\n", to: &buffer)
        }
        append("\r\n", to: &buffer)
    }

    @inline(__always)
    private static func append(_ text: StaticString, to buffer: inout [UInt8]) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    /// Framing headers are the server's to write; a handler's copy would risk a second, conflicting length.
    static func isServerManaged(_ name: String) -> Bool {
        // One comparison per header at most: the five names differ in length.
        switch name.utf8.count {
        case 4: HTTPHeaders.equalsIgnoringCase(name, "Date")
        case 6: HTTPHeaders.equalsIgnoringCase(name, "Server")
        case 10: HTTPHeaders.equalsIgnoringCase(name, "Connection")
        case 14: HTTPHeaders.equalsIgnoringCase(name, "Content-Length")
        case 17: HTTPHeaders.equalsIgnoringCase(name, "Transfer-Encoding")
        default: false
        }
    }

    /// `text`'s bytes, read in place (`append(contentsOf: text.utf8)` retained and released the string).
    @inline(__always)
    static func appendUTF8(_ text: String, to buffer: inout [UInt8]) {
        HTTPHeaders.withUTF8(text) { buffer.append(contentsOf: $0) }
    }

    static func appendDecimal(_ value: Int, to buffer: inout [UInt8]) {
        if value == 0 { buffer.append(0x30); return }
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        var remaining = value
        withUnsafeMutableBytes(of: &digits) { raw in
            while remaining > 0 {
                raw[count] = UInt8(0x30 + remaining % 10)
                remaining /= 10
                count += 1
            }
            while count > 0 {
                count -= 1
                buffer.append(raw[count])
            }
        }
    }
}
