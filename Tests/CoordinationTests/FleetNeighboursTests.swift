import TestSupport
import Testing
@testable import Coordination

/// A typo'd fleet name is a second poller (issue 46 item 7): warned at start and in `/health`.
@Suite struct FleetNeighboursTests {
    static let keys = ["/fa/leader", "/fa/members/a:1", "/fa/members/b:1", "/fa/dataset", "/other-app/config", "/prod/members/x:1"]

    @Test func aFleetOneCaseOrOneCharacterAwayIsWarned() {
        for typo in ["Fa", "fb", "f", "faa"] {
            let warnings = FleetNeighbours.warnings(fleet: typo, keys: Self.keys, ownMembers: 2)
            #expect(warnings.count == 1 && warnings[0].contains("'fa'"), "\(typo): \(warnings)")
        }
        #expect(FleetNeighbours.warnings(fleet: "fa", keys: Self.keys, ownMembers: 2).isEmpty, "its own fleet")
        #expect(FleetNeighbours.warnings(fleet: "staging", keys: Self.keys, ownMembers: 2).isEmpty, "far from every fleet")
        #expect(FleetNeighbours.warnings(fleet: "other-ap", keys: Self.keys, ownMembers: 2).isEmpty, "not a fleet: no leader, no members")
    }

    @Test func aMemberAloneBesideOtherFleetsIsWarned() {
        let warnings = FleetNeighbours.warnings(fleet: "staging", keys: Self.keys, ownMembers: 1)
        #expect(warnings.count == 1 && warnings[0].contains("alone"), "\(warnings)")
        #expect(FleetNeighbours.warnings(fleet: "staging", keys: ["/staging/leader"], ownMembers: 1).isEmpty, "no other fleet")
    }

    @Test func editDistanceOne() {
        #expect(FleetNeighbours.editDistanceIsOne("fa", "fb"))
        #expect(FleetNeighbours.editDistanceIsOne("fa", "f"))
        #expect(FleetNeighbours.editDistanceIsOne("petty", "pety"))
        #expect(!FleetNeighbours.editDistanceIsOne("petty", "petty"))
        #expect(!FleetNeighbours.editDistanceIsOne("petty", "pxtxy"))
        #expect(!FleetNeighbours.editDistanceIsOne("ab", "ba"))
    }
}

extension FleetCoordinatorTests {
    @Test func aTypodFleetNameIsWarnedInTheStatus() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        etcd.put("/T/leader", #"{"name":"z:1","url":"http://z:1"}"#)
        etcd.put("/T/members/z:1", #"{"url":"http://z:1","version":9,"epoch":2,"role":"leader"}"#)
        let a = coordinator(etcd, name: "a")
        await a.cycle()
        let warnings = a.status.warnings
        #expect(warnings.count == 2, "\(warnings)")
        #expect(warnings.contains { $0.contains("'T'") } && warnings.contains { $0.contains("alone") })
    }
}
