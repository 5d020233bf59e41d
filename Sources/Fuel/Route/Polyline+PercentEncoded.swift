extension Polyline {
    /// `decode` of the text as a URL query carries it, `%XX` escapes unresolved: clients escape many of the
    /// format's characters (`?`, `@`, `[`, `\`, `]`, `^`, `` ` ``, `{`, `|`, `}`), so the plain reading would first
    /// copy kilobytes into an unescaped string; this reads the escapes in the same pass as the numbers.
    ///
    /// nil for anything else (`+` or any escape of a byte outside '?'...'~', a lone `%`, text `decode` refuses,
    /// more than `maximumPoints` points): the caller then unescapes the text as usual and `decode` names the fault.
    public static func decode(percentEncoded bytes: UnsafeBufferPointer<UInt8>, maximumPoints: Int) -> [Coordinate]? {
        try? PolylineReader.points(of: PercentEncodedPolylineBytes(bytes), byteCount: bytes.count, maximumPoints: maximumPoints)
    }
}
