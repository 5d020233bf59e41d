/// What the client sends (protocol v3, §55.7 "Message Formats"). Each encodes to its exact bytes.
enum FrontendMessage: Equatable {
    case startup(user: String, database: String, applicationName: String)
    case saslInitialResponse(mechanism: String, data: [UInt8])
    case saslResponse([UInt8])
    /// A statement named `statement` ("" for the unnamed one), parameter types left for the server to infer.
    case parse(statement: String, query: String)
    /// The unnamed portal from `statement`; every parameter and result in text format.
    case bind(statement: String, parameters: [PostgresValue])
    case describePortal
    case execute
    case sync
    case query(String)
    case terminate
    case cancelRequest(processID: Int32, secretKey: Int32)

    static let protocolVersion: Int32 = 196_608 // 3.0
    static let cancelRequestCode: Int32 = 80_877_102

    func encode(into out: inout [UInt8]) {
        switch self {
        case .startup(let user, let database, let applicationName):
            var body = ByteWriter()
            body.int32(Self.protocolVersion)
            for (name, value) in [("user", user), ("database", database), ("application_name", applicationName), ("client_encoding", "UTF8")] {
                body.cString(name)
                body.cString(value)
            }
            body.byte(0)
            out += ByteWriter.lengthPrefixed(body.bytes)
        case .cancelRequest(let processID, let secretKey):
            var body = ByteWriter()
            body.int32(Self.cancelRequestCode)
            body.int32(processID)
            body.int32(secretKey)
            out += ByteWriter.lengthPrefixed(body.bytes)
        case .saslInitialResponse(let mechanism, let data):
            var body = ByteWriter()
            body.cString(mechanism)
            body.int32(Int32(data.count))
            body.bytes += data
            out += ByteWriter.message("p", body.bytes)
        case .saslResponse(let data):
            out += ByteWriter.message("p", data)
        case .parse(let statement, let query):
            var body = ByteWriter()
            body.cString(statement)
            body.cString(query)
            body.int16(0)
            out += ByteWriter.message("P", body.bytes)
        case .bind(let statement, let parameters):
            var body = ByteWriter()
            body.cString("")
            body.cString(statement)
            body.int16(0) // all parameters in text format
            body.int16(Int16(parameters.count))
            for parameter in parameters {
                if let bytes = parameter.bytes {
                    body.int32(Int32(bytes.count))
                    body.bytes += bytes
                } else {
                    body.int32(-1)
                }
            }
            body.int16(0) // all results in text format
            out += ByteWriter.message("B", body.bytes)
        case .describePortal:
            out += ByteWriter.message("D", [UInt8(ascii: "P"), 0])
        case .execute:
            var body = ByteWriter()
            body.cString("")
            body.int32(0) // no row limit
            out += ByteWriter.message("E", body.bytes)
        case .sync:
            out += ByteWriter.message("S", [])
        case .query(let sql):
            var body = ByteWriter()
            body.cString(sql)
            out += ByteWriter.message("Q", body.bytes)
        case .terminate:
            out += ByteWriter.message("X", [])
        }
    }

    var bytes: [UInt8] {
        var out: [UInt8] = []
        encode(into: &out)
        return out
    }
}

struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func byte(_ value: UInt8) { bytes.append(value) }
    mutating func int16(_ value: Int16) {
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        bytes.append(UInt8(truncatingIfNeeded: value))
    }
    mutating func int32(_ value: Int32) {
        for shift in [24, 16, 8, 0] { bytes.append(UInt8(truncatingIfNeeded: value >> Int32(shift))) }
    }
    mutating func cString(_ text: String) {
        bytes += text.utf8
        bytes.append(0)
    }

    /// A type byte, then the length (counting itself, not the type byte), then the body.
    static func message(_ type: Character, _ body: [UInt8]) -> [UInt8] {
        [type.asciiValue!] + lengthPrefixed(body)
    }

    static func lengthPrefixed(_ body: [UInt8]) -> [UInt8] {
        var writer = ByteWriter()
        writer.int32(Int32(body.count + 4))
        return writer.bytes + body
    }
}
