import Crypto

/// The bearer secret a device proves itself with: 32 random bytes as 64 hex digits, shown once at creation.
/// Only its SHA-256 is stored; a presented secret is hashed and compared in constant time.
public struct DeviceSecret: Sendable, Equatable {
    public let text: String

    public init(text: String) { self.text = text }

    public static func generate() -> DeviceSecret {
        var generator = SystemRandomNumberGenerator()
        return DeviceSecret(text: Hex.encode((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    }

    public var hash: [UInt8] { SHA256.hash(Array(text.utf8)) }

    public func matches(storedHash: [UInt8]) -> Bool { constantTimeEquals(hash, storedHash) }
}
