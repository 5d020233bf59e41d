import Foundation
import Fuel

extension LoadLimits {
    /// A change log is checked value by value like every file; one that fails is set aside and sync starts again
    /// after the snapshot (old cursors then answer 410).
    static func check(_ log: ChangeLog) throws {
        if let horizon = log.horizon { try check(instant: horizon.changedAt.timeIntervalSince1970, "change log horizon") }
        try check(count: log.stations.count, "change log stations")
        try check(log.stations.count <= maxStations, "change log stations \(log.stations.count)")
        try check(count: log.removals.count, "change log removals")
        for (id, instant) in log.stations {
            try check(id: id.rawValue)
            try check(instant: instant.timeIntervalSince1970, "station changed_at")
        }
        for removal in log.removals {
            try check(id: removal.station.rawValue)
            try check(instant: removal.at.timeIntervalSince1970, "removal instant")
        }
    }
}

extension LoadLimits {
    static func check(_ marked: MarkedChangeLog) throws {
        try check(marked.log)
        try check((0...maxStationID).contains(marked.idMark ?? 0), "change log id mark \(marked.idMark ?? 0)")
    }
}
