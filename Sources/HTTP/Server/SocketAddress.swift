#if canImport(Glibc)
import Glibc
#endif
import CEpoll

/// A resolved IPv4 or IPv6 socket address.
struct SocketAddress {
    var storage: sockaddr_storage
    var length: socklen_t

    var family: Int32 { Int32(storage.ss_family) }

    /// Resolves a numeric address or host name (`0.0.0.0`, `::`, `127.0.0.1`, `localhost`) for a passive TCP socket.
    static func resolve(host: String, port: Int) throws -> SocketAddress {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_ADDRCONFIG
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let first = result else {
            let message = status == 0 ? "no address" : String(cString: gai_strerror(status))
            throw ListenerError.cannotResolve(host: host, message: message)
        }
        defer { freeaddrinfo(result) }
        // Prefer IPv4 for `localhost` so clients that try 127.0.0.1 first find us.
        var chosen = first
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            if info.pointee.ai_family == AF_INET { chosen = info; break }
            cursor = info.pointee.ai_next
        }
        var address = SocketAddress(storage: sockaddr_storage(), length: chosen.pointee.ai_addrlen)
        withUnsafeMutableBytes(of: &address.storage) { raw in
            raw.copyMemory(from: UnsafeRawBufferPointer(start: chosen.pointee.ai_addr, count: Int(chosen.pointee.ai_addrlen)))
        }
        return address
    }

    /// The numeric host (`127.0.0.1`, `::1`) and port of a peer or local address.
    static func describe(_ storage: sockaddr_storage) -> (host: String, port: Int) {
        var storage = storage
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { sin in
                    var addr = sin.pointee.sin_addr
                    inet_ntop(AF_INET, &addr, &buffer, socklen_t(buffer.count))
                    return (String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self), Int(UInt16(bigEndian: sin.pointee.sin_port)))
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { sin6 in
                    var addr = sin6.pointee.sin6_addr
                    inet_ntop(AF_INET6, &addr, &buffer, socklen_t(buffer.count))
                    var host = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                    if host.hasPrefix("::ffff:"), host.contains(".") { host.removeFirst(7) }
                    return (host, Int(UInt16(bigEndian: sin6.pointee.sin6_port)))
                }
            }
        default:
            return ("unknown", 0)
        }
    }
}
