/// The Android app that may open share links (`PETTY_ANDROID_PACKAGE`, `PETTY_ANDROID_CERT_SHA256`), validated at
/// startup so a typo fails the deploy instead of silently breaking App Links verification.
public struct AndroidAppLink: Equatable, Sendable {
    /// `au.petty.app`
    public let package: String
    /// Signing certificate fingerprints, `14:6D:E9:...` (32 upper-case hex pairs); several while a key rotates.
    public let fingerprints: [String]

    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// `fingerprints` is comma-separated; each is 32 hex bytes separated by colons, either case.
    public init(package: String, fingerprints raw: String) throws {
        guard Self.isPackageName(package) else {
            throw Invalid(description: "PETTY_ANDROID_PACKAGE must be an Android application id such as au.petty.app (two or more dot-separated parts, each a letter then letters, digits or _), got '\(package)'")
        }
        let fingerprints = raw.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).uppercased() }
        guard !fingerprints.isEmpty else {
            throw Invalid(description: "PETTY_ANDROID_CERT_SHA256 is required with PETTY_ANDROID_PACKAGE")
        }
        for fingerprint in fingerprints where !Self.isFingerprint(fingerprint) {
            throw Invalid(description: "PETTY_ANDROID_CERT_SHA256 must be SHA-256 fingerprints, 32 hex bytes separated by colons (AB:CD:...), comma-separated, got '\(fingerprint)'")
        }
        self.package = package
        self.fingerprints = fingerprints
    }

    static func isPackageName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return false }
        return parts.allSatisfy { part in
            guard let first = part.unicodeScalars.first, first.isASCIILetter else { return false }
            return part.unicodeScalars.allSatisfy { $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" }
        }
    }

    static func isFingerprint(_ text: String) -> Bool {
        let bytes = text.split(separator: ":", omittingEmptySubsequences: false)
        return bytes.count == 32 && bytes.allSatisfy { $0.count == 2 && $0.allSatisfy(\.isHexDigit) }
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
