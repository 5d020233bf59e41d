#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Serves files from a public directory for GET and HEAD requests that no route answered.
/// Nothing outside the directory is reachable: segments with separators, NUL or leading dots are refused
/// (except `.well-known`), and the resolved real path must stay inside the real root (symlinks included).
public struct FileMiddleware: Middleware {
    public let root: String
    let cacheControl: String

    public init(publicDirectory: String, cacheControl: String = "public, max-age=3600") {
        let resolved = FileMiddleware.realPath(publicDirectory) ?? publicDirectory
        self.root = resolved.hasSuffix("/") ? String(resolved.dropLast()) : resolved
        self.cacheControl = cacheControl
    }

    public func respond(to request: Request, chainingTo next: Responder) throws -> Response {
        do {
            return try next.respond(to: request)
        } catch let miss as RouteNotFound {
            guard request.method == .GET || request.method == .HEAD, let file = locate(request.pathSegments) else {
                throw miss
            }
            return try serve(file)
        }
    }

    struct LocatedFile {
        var path: String
        var size: Int
        var modified: Int
    }

    func locate(_ segments: [String]) -> LocatedFile? {
        for segment in segments {
            if segment.isEmpty || segment.utf8.contains(where: { $0 == 0x2F || $0 == 0x5C || $0 == 0 }) { return nil }
            if segment.hasPrefix(".") && segment != ".well-known" { return nil }
        }
        var candidate = root + "/" + segments.joined(separator: "/")
        guard var info = Self.status(of: candidate) else { return nil }
        if info.isDirectory {
            candidate += "/index.html"
            guard let indexInfo = Self.status(of: candidate), !indexInfo.isDirectory else { return nil }
            info = indexInfo
        }
        guard let real = Self.realPath(candidate), real.hasPrefix(root + "/") else { return nil }
        return LocatedFile(path: real, size: info.size, modified: info.modified)
    }

    func serve(_ file: LocatedFile) throws -> Response {
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw Abort(.notFound)
        }
        var headers: HTTPHeaders = [
            "Content-Type": MIMEType.forPath(file.path),
            "ETag": "\"\(String(file.size, radix: 16))-\(String(file.modified, radix: 16))\"",
            "Last-Modified": HTTPDate.string(fromUnixTime: file.modified),
            "Cache-Control": cacheControl,
        ]
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        return Response(status: .ok, headers: headers, body: Array(data))
    }

    static func status(of path: String) -> (isDirectory: Bool, size: Int, modified: Int)? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG || type == S_IFDIR else { return nil }
        return (type == S_IFDIR, Int(info.st_size), Int(info.st_mtim.tv_sec))
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

public enum MIMEType {
    public static func forPath(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        if name == "apple-app-site-association" { return "application/json" }
        guard let dot = name.lastIndex(of: ".") else { return "application/octet-stream" }
        switch name[name.index(after: dot)...].lowercased() {
        case "html", "htm": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js", "mjs": return "text/javascript; charset=utf-8"
        case "json", "map": return "application/json"
        case "txt": return "text/plain; charset=utf-8"
        case "xml": return "application/xml"
        case "svg": return "image/svg+xml"
        case "png": return "image/png"
        case "jpg", "jpeg": return "image/jpeg"
        case "gif": return "image/gif"
        case "webp": return "image/webp"
        case "ico": return "image/x-icon"
        case "webmanifest": return "application/manifest+json"
        case "woff2": return "font/woff2"
        case "woff": return "font/woff"
        case "pdf": return "application/pdf"
        default: return "application/octet-stream"
        }
    }
}
