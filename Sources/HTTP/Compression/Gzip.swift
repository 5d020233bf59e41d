import CZlib

/// gzip (RFC 1952) through the system zlib, one whole body per call.
public enum Gzip {
    /// For bodies compressed per request: most of the size win at a fraction of the default level's time.
    public static let fastLevel: Int32 = 1
    /// For bodies compressed once and served many times.
    public static let storedLevel: Int32 = 6

    public static func compress(_ input: [UInt8], level: Int32 = fastLevel) -> [UInt8] {
        var stream = z_stream()
        // windowBits 15 + 16 asks for the gzip header and trailer instead of zlib's.
        let initialized = deflateInit2_(
            &stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        precondition(initialized == Z_OK, "deflateInit2 failed: \(initialized)")
        defer { deflateEnd(&stream) }
        // With the wrapper set, deflateBound covers the gzip header and trailer too: one deflate call finishes.
        let bound = Int(deflateBound(&stream, UInt(input.count)))
        return input.withUnsafeBufferPointer { source in
            Array(unsafeUninitializedCapacity: bound) { output, written in
                stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
                stream.avail_in = UInt32(source.count)
                stream.next_out = output.baseAddress
                stream.avail_out = UInt32(bound)
                let finished = deflate(&stream, Z_FINISH)
                precondition(finished == Z_STREAM_END, "deflate did not finish within deflateBound: \(finished)")
                written = bound - Int(stream.avail_out)
            }
        }
    }

    /// The inverse, for tests and tools; nil when `input` is not one well-formed gzip member.
    static func decompress(_ input: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else { return nil }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return input.withUnsafeBufferPointer { source -> [UInt8]? in
            stream.next_in = UnsafeMutablePointer(mutating: source.baseAddress)
            stream.avail_in = UInt32(source.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { buffer -> Int32 in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = UInt32(buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                if status == Z_STREAM_END { return stream.avail_in == 0 ? output : nil }
                guard status == Z_OK else { return nil }
            }
        }
    }
}
