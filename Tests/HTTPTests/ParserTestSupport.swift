@testable import HTTP

/// Parses `text` (its UTF-8 bytes) with the given limits.
func parse(_ text: String, limits: HTTPParserLimits = .init()) -> HTTPParseResult {
    HTTPRequestParser(limits: limits).parse(Array(text.utf8))
}

func parse(_ bytes: [UInt8], limits: HTTPParserLimits = .init()) -> HTTPParseResult {
    HTTPRequestParser(limits: limits).parse(bytes)
}

/// A comparable picture of a parse result, so tests can assert exact outcomes.
struct ParseSnapshot: Equatable, CustomStringConvertible {
    enum Kind: Equatable { case complete, needMore, failure }
    var kind: Kind
    var method: String?
    var target: String?
    var segments: [String]?
    var hasTrailingSlash: Bool?
    var rawQuery: String??
    var version: HTTPVersion?
    var headers: [[String]]?
    var body: [UInt8]?
    var consumed: Int?
    var status: Int?

    init(_ result: HTTPParseResult) {
        switch result {
        case .complete(let head, let body, let consumed):
            kind = .complete
            self.body = body
            self.consumed = consumed
            fill(head)
        case .needMore(let head):
            kind = .needMore
            if let head { fill(head) }
        case .failure(let error):
            kind = .failure
            status = error.status.code
        }
    }

    private mutating func fill(_ head: HTTPRequestHead) {
        method = head.method.rawValue
        target = head.target
        segments = head.pathSegments
        hasTrailingSlash = head.hasTrailingSlash
        rawQuery = .some(head.rawQuery)
        version = head.version
        headers = head.headers.map { [$0.name, $0.value] }
    }

    var description: String {
        switch kind {
        case .failure: "failure(\(status ?? 0))"
        case .needMore: "needMore(head: \(method.map { "\($0) \(target ?? "")" } ?? "nil"))"
        case .complete: "complete(\(method ?? "") \(target ?? "") body: \(body?.count ?? 0) consumed: \(consumed ?? 0))"
        }
    }
}

extension HTTPParseResult {
    var head: HTTPRequestHead? {
        switch self {
        case .complete(let head, _, _): head
        case .needMore(let head): head
        case .failure: nil
        }
    }

    var body: String? {
        if case .complete(_, let body, _) = self { return String(decoding: body, as: UTF8.self) }
        return nil
    }

    var consumed: Int? {
        if case .complete(_, _, let consumed) = self { return consumed }
        return nil
    }

    var isComplete: Bool { consumed != nil }

    var isNeedMore: Bool {
        if case .needMore = self { return true }
        return false
    }

    /// The failure status code, or nil when the parse did not fail.
    var status: Int? {
        if case .failure(let error) = self { return error.status.code }
        return nil
    }
}
