// libFuzzer target `parser`: arbitrary bytes into `HTTPRequestParser.parse`, with the parser's own
// limits and with tiny ones (so every limit path is reachable from short inputs).
//
// Besides "never crashes", it checks invariants the connection code relies on; a violation is a
// `fatalError`, which libFuzzer reports as a crash with the input saved:
//   - `consumed` is within 1...size, the body and header count respect the limits;
//   - re-parsing exactly the `consumed` bytes gives the same result (pipelining leftovers never matter);
//   - the parser is incremental: every proper prefix of a complete request is `.needMore`, a prefix never
//     completes unless the whole input completes identically, and a head reported with `.needMore`
//     is the head of the completed request;
//   - resuming (one progress value carried across the growing prefixes, as the connection parses) gives at every
//     length what a fresh parse of that prefix gives;
//   - path segments are non-empty, contain no NUL and are never `.` or `..`;
//   - `target` is visible ASCII and `rawQuery`, when present, is the tail of `target` after its first `?`.
@testable import HTTP

private let defaultParser = HTTPRequestParser()
private let tinyParser: HTTPRequestParser = {
    var limits = HTTPParserLimits()
    limits.maxRequestLineBytes = 48
    limits.maxHeaderBytes = 96
    limits.maxHeaderCount = 3
    limits.maxBodyBytes = 24
    return HTTPRequestParser(limits: limits)
}()

/// A comparable picture of a result (HTTPParseResult is not Equatable).
private struct Snapshot: Equatable {
    enum Kind: Equatable { case complete, needMore, failure }
    var kind: Kind
    var head: [String] = []
    var headers: [String] = []
    var body: [UInt8] = []
    var consumed = -1
    var status = 0
    var reason = ""

    init(_ result: HTTPParseResult) {
        switch result {
        case .complete(let head, let body, let consumed):
            kind = .complete
            self.head = Self.describe(head)
            headers = head.headers.flatMap { [$0.name, $0.value] }
            self.body = body
            self.consumed = consumed
        case .needMore(let head):
            kind = .needMore
            if let head {
                self.head = Self.describe(head)
                headers = head.headers.flatMap { [$0.name, $0.value] }
            }
        case .failure(let error):
            kind = .failure
            status = error.status.code
            reason = error.reason
        }
    }

    static func describe(_ head: HTTPRequestHead) -> [String] {
        [head.method.rawValue, head.target, "\(head.hasTrailingSlash)", head.rawQuery ?? "<nil>", head.version.description]
            + ["segments:"] + head.pathSegments
    }
}

private func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError("parser invariant violated: \(message())") }
}

private func checkHead(_ head: HTTPRequestHead, _ parser: HTTPRequestParser) {
    for segment in head.pathSegments {
        check(!segment.isEmpty, "empty path segment in \(head.pathSegments)")
        check(segment != "." && segment != "..", "dot-segment survived: \(head.pathSegments)")
        check(!segment.utf8.contains(0), "NUL in path segment \(head.pathSegments)")
    }
    check(!head.target.isEmpty && head.target.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "target not visible ASCII: \(head.target)")
    if let rawQuery = head.rawQuery {
        let target = Array(head.target.utf8)
        guard let question = target.firstIndex(of: UInt8(ascii: "?")) else {
            fatalError("parser invariant violated: rawQuery \(rawQuery) without ? in target \(head.target)")
        }
        check(Array(target[(question + 1)...]) == Array(rawQuery.utf8), "rawQuery \(rawQuery) is not the tail of \(head.target)")
    }
    check(head.headers.count <= parser.limits.maxHeaderCount, "more headers than the limit")
    for field in head.headers {
        check(!field.name.isEmpty, "empty header name")
        check(!field.value.utf8.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }), "control byte in header value")
        check(field.value.utf8.first != 0x20 && field.value.utf8.last != 0x20, "untrimmed header value")
    }
    _ = head.path
    _ = head.wantsKeepAlive
    _ = head.query.items.count
}

private func run(_ parser: HTTPRequestParser, _ bytes: UnsafeRawBufferPointer) {
    let size = bytes.count
    let result = parser.parse(bytes)
    let snapshot = Snapshot(result)

    switch result {
    case .complete(let head, let body, let consumed):
        check(consumed >= 1 && consumed <= size, "consumed \(consumed) of \(size)")
        check(body.count <= parser.limits.maxBodyBytes, "body \(body.count) over the limit")
        checkHead(head, parser)
        if consumed < size {
            let exact = Snapshot(parser.parse(UnsafeRawBufferPointer(rebasing: bytes[0..<consumed])))
            check(exact == snapshot, "re-parsing the consumed \(consumed) bytes differs: \(exact) vs \(snapshot)")
        }
    case .needMore(let head):
        if let head { checkHead(head, parser) }
    case .failure(let error):
        check(error.status.code >= 400 && error.status.code < 600, "failure with status \(error.status.code)")
    }

    // Incremental parsing: the connection re-parses the growing buffer, so prefixes must agree.
    // All prefixes of short inputs; a spread of them (and those just before `consumed`) for longer ones.
    var prefixes: [Int] = []
    if size <= 192 {
        prefixes = Array(0..<size)
    } else {
        let step = max(1, size / 48)
        prefixes = Array(stride(from: 0, to: size, by: step))
        if snapshot.kind == .complete { prefixes += [snapshot.consumed - 2, snapshot.consumed - 1].filter { $0 >= 0 } }
    }
    runResuming(parser, bytes, lengths: Array(Set(prefixes + [size])).sorted())
    for length in prefixes {
        let prefix = Snapshot(parser.parse(UnsafeRawBufferPointer(rebasing: bytes[0..<length])))
        switch prefix.kind {
        case .complete:
            // A complete prefix means the whole input is that same request (bytes after it are the next one).
            check(snapshot == prefix, "prefix of \(length) completes as \(prefix) but the whole input gives \(snapshot)")
        case .needMore:
            if snapshot.kind == .complete, !prefix.head.isEmpty {
                check(prefix.head == snapshot.head && prefix.headers == snapshot.headers,
                      "head of .needMore at \(length) differs from the completed head")
            }
        case .failure:
            check(snapshot.kind != .complete, "prefix of \(length) fails (\(prefix.status) \(prefix.reason)) but the whole input completes")
            check(snapshot.kind != .needMore, "prefix of \(length) fails (\(prefix.status) \(prefix.reason)) but the whole input needs more")
        }
    }
}

/// The connection keeps one `HTTPParseProgress` across reads and hands back the grown buffer: at every length the
/// resumed parse must give exactly what a fresh parse of that prefix gives (until the first result that is not
/// `.needMore`: a complete request resets the progress, a failure closes the connection).
private func runResuming(_ parser: HTTPRequestParser, _ bytes: UnsafeRawBufferPointer, lengths: [Int]) {
    var progress = HTTPParseProgress()
    for length in lengths {
        let prefix = UnsafeRawBufferPointer(rebasing: bytes[0..<length])
        let resumed = Snapshot(parser.parse(prefix, resuming: &progress))
        let fresh = Snapshot(parser.parse(prefix))
        check(resumed == fresh, "resumed parse at \(length) gives \(resumed), a fresh one \(fresh)")
        if resumed.kind != .needMore { return }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    run(defaultParser, bytes)
    run(tinyParser, bytes)
    return 0
}
