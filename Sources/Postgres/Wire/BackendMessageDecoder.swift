/// Splits the byte stream from the server into messages: a pure function over bytes that never sees the socket.
struct BackendMessageDecoder {
    /// Larger messages are refused: a row of Petty's tables is a few KiB; a length past this is a broken stream.
    static let maxMessageBytes = 64 << 20

    private var buffer: [UInt8] = []
    private var start = 0

    mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        }
        buffer += bytes
    }

    var hasBufferedBytes: Bool { start < buffer.count }

    /// The next complete message, nil when more bytes are needed.
    mutating func next() throws -> BackendMessage? {
        guard buffer.count - start >= 5 else { return nil }
        let type = buffer[start]
        var length = 0
        for index in 1...4 { length = length << 8 | Int(buffer[start + index]) }
        guard length >= 4, length <= Self.maxMessageBytes else {
            throw PostgresError.protocolViolation("a message length of \(length) bytes")
        }
        guard buffer.count - start >= 1 + length else { return nil }
        let body = buffer[(start + 5)..<(start + 1 + length)]
        start += 1 + length
        let message = try BackendMessage.decode(type: type, body: body)
        if start > 1 << 16 && start * 2 > buffer.count {
            buffer.removeFirst(start)
            start = 0
        }
        return message
    }
}
