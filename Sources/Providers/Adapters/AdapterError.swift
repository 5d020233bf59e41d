/// Why a provider payload could not be adapted at all. Row-level problems never throw: they are skipped
/// and counted in `AdapterTally`, so one odd row cannot take a whole feed down.
public enum AdapterError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body had no bytes (or only whitespace).
    case emptyPayload(source: String)
    /// The envelope could not be decoded; `context` names the source and what the decoder saw.
    case decodingFailed(source: String, context: String)
    /// The body decoded but is not the document we expected (e.g. HTML where RSS was expected).
    case unexpectedShape(source: String, detail: String)

    public var description: String {
        switch self {
        case .emptyPayload(let source): "\(source): empty payload"
        case .decodingFailed(let source, let context): "\(source): decoding failed: \(context)"
        case .unexpectedShape(let source, let detail): "\(source): unexpected shape: \(detail)"
        }
    }
}
