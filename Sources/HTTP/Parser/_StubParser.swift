// TEMPORARY stand-in until the real parser lands; deleted on merge.
public struct HTTPRequestParser: Sendable {
    let limits: HTTPParserLimits
    public init(limits: HTTPParserLimits = .init()) { self.limits = limits }

    public func parse(_ bytes: UnsafeRawBufferPointer) -> HTTPParseResult {
        let b = Array(bytes)
        guard let end = find(b, [13, 10, 13, 10]) else { return .needMore(head: nil) }
        let text = String(decoding: b[0..<end], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let parts = lines.removeFirst().split(separator: " ")
        guard parts.count == 3 else { return .failure(HTTPParseError(.badRequest, "bad request line")) }
        var headers = HTTPHeaders()
        for line in lines {
            guard let c = line.firstIndex(of: ":") else { return .failure(HTTPParseError(.badRequest, "bad header")) }
            headers.add(name: String(line[..<c]), value: line[line.index(after: c)...].trimmingASCIIWhitespace())
        }
        let target = String(parts[1])
        let pathPart = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let segs = pathPart[0].split(separator: "/").map { String($0).removingPercentEncodingStub() }
        let version: HTTPVersion = parts[2] == "HTTP/1.0" ? .http1_0 : .http1_1
        let head = HTTPRequestHead(method: HTTPMethod(token: String(parts[0])), target: target, pathSegments: segs, rawQuery: pathPart.count > 1 ? String(pathPart[1]) : nil, version: version, headers: headers)
        let length = Int(headers.first(name: "Content-Length") ?? "0") ?? 0
        if length > limits.maxBodyBytes { return .failure(HTTPParseError(.payloadTooLarge, "too large")) }
        guard b.count >= end + 4 + length else { return .needMore(head: head) }
        return .complete(head, body: Array(b[(end + 4)..<(end + 4 + length)]), consumed: end + 4 + length)
    }

    public func parse(_ bytes: [UInt8]) -> HTTPParseResult { bytes.withUnsafeBytes { parse($0) } }

    func find(_ hay: [UInt8], _ needle: [UInt8]) -> Int? {
        guard hay.count >= needle.count else { return nil }
        for i in 0...(hay.count - needle.count) where Array(hay[i..<(i + needle.count)]) == needle { return i }
        return nil
    }
}

public struct URLQuery: Sendable {
    public var items: [(name: String, value: String)]
    public init(_ raw: String?) {
        items = (raw ?? "").split(separator: "&").map { pair in
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (String(kv[0]).removingPercentEncodingStub(), kv.count > 1 ? String(kv[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncodingStub() : "")
        }
    }
    public subscript(key: String) -> String? { items.first { $0.name == key }?.value }
    public func values(for key: String) -> [String] { items.filter { $0.name == key }.map(\.value) }
    public func contains(_ key: String) -> Bool { items.contains { $0.name == key } }
}

import Foundation
extension String { func removingPercentEncodingStub() -> String { removingPercentEncoding ?? self } }
