import Coordination
import Foundation
import Fuel
import HTTP
import Synchronization

/// `fleet.json` in the data directory: the fleet generation (with the etcd cluster it was recorded in) and the
/// fleet's id high-water mark as this member last learnt them, so both live as long as the member's data, not as
/// long as etcd. Written atomically and sealed like the data files (`AtomicFile`, `FileSeal`); a missing or damaged
/// file starts at generation 0 with no mark, and the log says so.
final class FleetMarksFile: Sendable {
    struct Marks: Codable, Equatable {
        var generation: Int64 = 0
        var clusterID: String?
        var ids: Int64 = 0

        enum CodingKeys: String, CodingKey {
            case generation, ids
            case clusterID = "cluster_id"
        }

        var isPlausible: Bool { generation >= 0 && ids >= 0 && ids <= Int64(LoadLimits.maxStationID) }
    }

    static let fileName = "fleet.json"

    /// nil: kept in memory only (tests, and a member without a data directory).
    let path: String?
    private let logger: Logger?
    private let marks: Mutex<Marks>

    init(directory: String?, logger: Logger? = nil) {
        path = directory.map { ($0 as NSString).appendingPathComponent(Self.fileName) }
        self.logger = logger
        marks = Mutex(path.map { Self.load($0, logger: logger) } ?? Marks())
    }

    var current: Marks { marks.withLock { $0 } }

    var generation: FleetGeneration {
        let marks = current
        return FleetGeneration(number: marks.generation, clusterID: marks.clusterID)
    }

    /// Records `generation`; false when the file could not be written (the old one stays).
    func persist(_ generation: FleetGeneration) -> Bool {
        update { $0.generation = generation.number; $0.clusterID = generation.clusterID }
    }

    /// Raises the recorded id mark to `mark` when it is higher; false when a write was due and failed.
    @discardableResult
    func raise(ids mark: Int64) -> Bool {
        guard mark > current.ids, mark <= Int64(LoadLimits.maxStationID) else { return true }
        return update { $0.ids = max($0.ids, mark) }
    }

    private func update(_ change: (inout Marks) -> Void) -> Bool {
        marks.withLock { marks in
            var next = marks
            change(&next)
            guard next != marks else { return true }
            if let path {
                do {
                    try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                    try AtomicFile.write(FileSeal.seal(Array(try StoredJSON.encoder.encode(next))), to: path)
                } catch {
                    logger?.error("data: cannot write \(path): \(error)")
                    return false
                }
            }
            marks = next
            return true
        }
    }

    private static func load(_ path: String, logger: Logger?) -> Marks {
        guard let bytes = AtomicFile.read(path) else {
            logger?.notice("data: no \(fileName) in \((path as NSString).deletingLastPathComponent): fleet generation 0, no fleet id mark (until etcd's records say more)")
            return Marks()
        }
        let why: String
        switch FileSeal.open(bytes) {
        case .verified(let payload):
            if let marks = try? StoredJSON.decoder.decode(Marks.self, from: Data(payload)), marks.isPlausible {
                logger?.notice("data: \(fileName): fleet generation \(marks.generation), fleet id mark \(marks.ids)")
                return marks
            }
            why = "undecodable or out of range"
        case .unsealed: why = "no checksum line"
        case .mismatch: why = "checksum mismatch"
        }
        logger?.error("data: \(path) is unreadable (\(why)): fleet generation starts at 0 with no fleet id mark; etcd's records and the data files' own mark are all that order them now")
        return Marks()
    }
}
