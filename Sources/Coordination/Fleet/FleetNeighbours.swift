/// Other fleets in the same etcd that look like a typo of this one: `PETTY_FLEET=Fa` beside a fleet `fa` silently
/// leads a one-member fleet of its own and polls alongside it. A fleet is a first key segment holding a leader key
/// or member records (other applications' keys are not fleets).
public enum FleetNeighbours {
    public static func warnings(fleet: String, keys: [String], ownMembers: Int) -> [String] {
        var fleets = Set<String>()
        for key in keys where key.hasPrefix("/") {
            let parts = key.dropFirst().split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] != fleet, parts[1] == "leader" || parts[1].hasPrefix("members/") else { continue }
            fleets.insert(String(parts[0]))
        }
        var warnings: [String] = []
        for other in fleets.sorted() where other.lowercased() == fleet.lowercased() || editDistanceIsOne(other, fleet) {
            warnings.append("etcd holds the fleet '\(other)', a name only a letter's case or one character from this member's '\(fleet)': check PETTY_FLEET (a typo makes a second poller)")
        }
        if ownMembers == 1, !fleets.isEmpty {
            warnings.append("this member is alone in fleet '\(fleet)' while etcd holds other fleets (\(fleets.sorted().prefix(5).joined(separator: ", "))): check PETTY_FLEET")
        }
        return warnings
    }

    /// One insertion, deletion or substitution apart.
    static func editDistanceIsOne(_ a: String, _ b: String) -> Bool {
        let a = Array(a), b = Array(b)
        guard abs(a.count - b.count) <= 1, a != b else { return false }
        var i = 0, j = 0, edits = 0
        while i < a.count, j < b.count {
            if a[i] == b[j] {
                i += 1
                j += 1
                continue
            }
            edits += 1
            if edits > 1 { return false }
            if a.count > b.count { i += 1 } else if a.count < b.count { j += 1 } else {
                i += 1
                j += 1
            }
        }
        return edits + (a.count - i) + (b.count - j) == 1
    }
}
