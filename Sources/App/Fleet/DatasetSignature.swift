import Coordination
import Crypto

/// Who may publish a dataset the fleet copies: whoever holds `PETTY_FLEET_SECRET`, which lives in each member's
/// environment and never in etcd, so write access to the fleet's keys is not enough. The leader signs the fleet's
/// name, the pointer's token (generation, epoch), its version and the body's SHA-256; a follower checks the body against the digest
/// and the digest against the signature before it decodes anything. (The pointer's FNV checksum only catches
/// damage: anyone can compute it for a body of their choosing.)
struct DatasetSignature: Sendable {
    let key: [UInt8]
    let fleet: String

    init?(secret: String?, fleet: String) {
        guard let secret, !secret.isEmpty else { return nil }
        key = Array(secret.utf8)
        self.fleet = fleet
    }

    static func digest(_ body: [UInt8]) -> String { Hex.encode(SHA256.hash(body)) }

    func signature(token: FleetFenceToken, version: UInt64, sha256: String) -> String {
        let message = "petty-fleet-dataset-v2\n\(fleet)\n\(token.generation)\n\(token.revision)\n\(version)\n\(sha256)"
        return Hex.encode(HMACSHA256.authenticationCode(for: Array(message.utf8), key: key))
    }

    func signed(_ pointer: DatasetPointer, sha256: String) -> DatasetPointer {
        var pointer = pointer
        pointer.sha256 = sha256
        pointer.signature = signature(token: pointer.token, version: pointer.version, sha256: sha256)
        return pointer
    }

    /// Why `body` offered under `pointer` is not the fleet's, or nil when its signature holds.
    func refusal(of pointer: DatasetPointer, body: [UInt8]) -> String? {
        guard let sha256 = pointer.sha256, let signature = pointer.signature, let given = Hex.decode(signature) else {
            return "unsigned dataset (this member has PETTY_FLEET_SECRET; the publisher signed nothing)"
        }
        guard constantTimeEquals(Array(Self.digest(body).utf8), Array(sha256.lowercased().utf8)) else {
            return "the body's SHA-256 is not the signed one"
        }
        let expected = Hex.decode(self.signature(token: pointer.token, version: pointer.version, sha256: sha256.lowercased())) ?? []
        guard constantTimeEquals(given, expected) else { return "wrong signature (not signed with this fleet's PETTY_FLEET_SECRET)" }
        return nil
    }
}
