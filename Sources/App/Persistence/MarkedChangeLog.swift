import Foundation
import Fuel

/// `changes.json`: the change log plus `idMark`, the highest station id ever issued when it was saved, as one more
/// key beside the log's own (older readers ignore it; older files have none). One of the three places the mark
/// lives (with `snapshot.bin` and `registry.json`), so losing any two still never reuses an id.
struct MarkedChangeLog: Codable {
    var log: ChangeLog
    var idMark: Int?

    private enum CodingKeys: String, CodingKey { case idMark }

    init(log: ChangeLog, idMark: Int?) {
        self.log = log
        self.idMark = idMark
    }

    init(from decoder: Decoder) throws {
        log = try ChangeLog(from: decoder)
        idMark = try decoder.container(keyedBy: CodingKeys.self).decodeIfPresent(Int.self, forKey: .idMark)
    }

    func encode(to encoder: Encoder) throws {
        try log.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(idMark, forKey: .idMark)
    }

    /// The highest id the file vouches for: its mark, and every id its stations and tombstones name.
    var highestID: Int {
        max(idMark ?? 0, log.stations.keys.lazy.map(\.rawValue).max() ?? 0, log.removals.lazy.map(\.station.rawValue).max() ?? 0)
    }
}
