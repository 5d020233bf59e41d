/// What the server sends (protocol v3, §55.7), decoded from one message's type byte and body.
enum BackendMessage: Equatable {
    enum Authentication: Equatable {
        case ok
        case cleartextPassword
        case md5Password
        case sasl(mechanisms: [String])
        case saslContinue([UInt8])
        case saslFinal([UInt8])
        case other(Int32)
    }

    case authentication(Authentication)
    case backendKeyData(processID: Int32, secretKey: Int32)
    case parameterStatus(name: String, value: String)
    case readyForQuery(PostgresTransactionStatus)
    case errorResponse(PostgresServerError)
    case noticeResponse(PostgresServerError)
    case parseComplete
    case bindComplete
    case noData
    case emptyQueryResponse
    case rowDescription([PostgresColumn])
    case dataRow([String?])
    case commandComplete(String)
    case notification(PostgresNotification)
    /// Any other message (COPY, function call results, NegotiateProtocolVersion...): this client never asks for them.
    case unexpected(type: UInt8)

    static func decode(type: UInt8, body: ArraySlice<UInt8>) throws -> BackendMessage {
        var reader = ByteReader(body)
        switch type {
        case UInt8(ascii: "R"):
            let code = try reader.int32()
            switch code {
            case 0: return .authentication(.ok)
            case 3: return .authentication(.cleartextPassword)
            case 5: return .authentication(.md5Password)
            case 10:
                var mechanisms: [String] = []
                while true {
                    let name = try reader.cString()
                    if name.isEmpty { break }
                    mechanisms.append(name)
                }
                return .authentication(.sasl(mechanisms: mechanisms))
            case 11: return .authentication(.saslContinue(reader.rest()))
            case 12: return .authentication(.saslFinal(reader.rest()))
            default: return .authentication(.other(code))
            }
        case UInt8(ascii: "K"):
            return .backendKeyData(processID: try reader.int32(), secretKey: try reader.int32())
        case UInt8(ascii: "S"):
            return .parameterStatus(name: try reader.cString(), value: try reader.cString())
        case UInt8(ascii: "Z"):
            guard let status = PostgresTransactionStatus(rawValue: try reader.byte()) else {
                throw PostgresError.protocolViolation("ReadyForQuery with an unknown transaction status")
            }
            return .readyForQuery(status)
        case UInt8(ascii: "E"), UInt8(ascii: "N"):
            var fields: [UInt8: String] = [:]
            while true {
                let code = try reader.byte()
                if code == 0 { break }
                fields[code] = try reader.cString()
            }
            let error = PostgresServerError(fields: fields)
            return type == UInt8(ascii: "E") ? .errorResponse(error) : .noticeResponse(error)
        case UInt8(ascii: "1"): return .parseComplete
        case UInt8(ascii: "2"): return .bindComplete
        case UInt8(ascii: "n"): return .noData
        case UInt8(ascii: "I"): return .emptyQueryResponse
        case UInt8(ascii: "T"):
            let count = Int(try reader.int16())
            var columns: [PostgresColumn] = []
            columns.reserveCapacity(count)
            for _ in 0..<count {
                let name = try reader.cString()
                _ = try reader.int32() // table OID
                _ = try reader.int16() // attribute number
                let typeOID = UInt32(bitPattern: try reader.int32())
                _ = try reader.int16() // type size
                _ = try reader.int32() // type modifier
                _ = try reader.int16() // format code
                columns.append(PostgresColumn(name: name, typeOID: typeOID))
            }
            return .rowDescription(columns)
        case UInt8(ascii: "D"):
            let count = Int(try reader.int16())
            var values: [String?] = []
            values.reserveCapacity(count)
            for _ in 0..<count {
                let length = try reader.int32()
                if length < 0 {
                    values.append(nil)
                } else {
                    values.append(String(decoding: try reader.bytes(Int(length)), as: UTF8.self))
                }
            }
            return .dataRow(values)
        case UInt8(ascii: "C"):
            return .commandComplete(try reader.cString())
        case UInt8(ascii: "A"):
            return .notification(PostgresNotification(processID: try reader.int32(), channel: try reader.cString(), payload: try reader.cString()))
        default:
            return .unexpected(type: type)
        }
    }
}

/// A NOTIFY delivered to a connection that LISTENs on its channel.
public struct PostgresNotification: Sendable, Equatable {
    public var processID: Int32
    public var channel: String
    public var payload: String
}

struct ByteReader {
    private var bytes: ArraySlice<UInt8>

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    mutating func byte() throws -> UInt8 {
        guard let value = bytes.popFirst() else { throw Self.short }
        return value
    }

    mutating func int16() throws -> Int16 {
        let raw = try self.bytes(2)
        return Int16(bitPattern: UInt16(raw[raw.startIndex]) << 8 | UInt16(raw[raw.startIndex + 1]))
    }

    mutating func int32() throws -> Int32 {
        let raw = try self.bytes(4)
        var value: UInt32 = 0
        for byte in raw { value = value << 8 | UInt32(byte) }
        return Int32(bitPattern: value)
    }

    mutating func bytes(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, bytes.count >= count else { throw Self.short }
        let taken = bytes.prefix(count)
        bytes = bytes.dropFirst(count)
        return taken
    }

    mutating func cString() throws -> String {
        guard let end = bytes.firstIndex(of: 0) else { throw PostgresError.protocolViolation("a string without its terminating NUL") }
        let text = String(decoding: bytes[bytes.startIndex..<end], as: UTF8.self)
        bytes = bytes[(end + 1)...]
        return text
    }

    mutating func rest() -> [UInt8] {
        defer { bytes = [] }
        return Array(bytes)
    }

    private static let short = PostgresError.protocolViolation("a message shorter than its fields")
}

/// Where the session stands after each statement, as ReadyForQuery reports it.
public enum PostgresTransactionStatus: UInt8, Equatable, Sendable {
    case idle = 73 // 'I'
    case inTransaction = 84 // 'T'
    /// Inside a transaction that failed: every statement is refused until ROLLBACK.
    case failedTransaction = 69 // 'E'
}
