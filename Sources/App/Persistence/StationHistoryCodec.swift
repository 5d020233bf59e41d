import Foundation
import Fuel

/// `station-history.bin`: every station's price changes, 6 bytes a change, little-endian:
/// magic `PTYSHIS1`, u32 track count, then per track u64 key (`StationHistory.key`), u32 mark count and
/// that many (u32 seconds since `PriceMark.epoch`, u16 tenths). Sealed and written like the other data files.
enum StationHistoryCodec {
    static let magic: [UInt8] = Array("PTYSHIS1".utf8)
    /// More than 90 days of changes every 10 minutes: anything longer is damage.
    static let maxMarksPerTrack = 20_000
    static let maxTracks = 2_000_000

    static func encode(_ history: StationHistory) -> [UInt8] {
        var out = ByteWriter()
        out.bytes.reserveCapacity(16 + history.tracks.count * 12 + history.markCount * 6)
        out.bytes.append(contentsOf: magic)
        let keys = history.tracks.keys.sorted()
        out.u32(UInt32(keys.count))
        for key in keys {
            let track = history.tracks[key]!
            out.u64(key)
            out.u32(UInt32(track.count))
            for position in 0..<track.count {
                let mark = track[position]
                out.u32(UInt32(bitPattern: mark.seconds))
                withUnsafeBytes(of: UInt16(bitPattern: mark.tenths).littleEndian) { out.bytes.append(contentsOf: $0) }
            }
        }
        return out.bytes
    }

    static func decode(_ bytes: [UInt8]) throws -> StationHistory {
        func malformed(_ text: String) -> SnapshotCodec.Malformed { SnapshotCodec.Malformed(description: text) }
        return try bytes.withUnsafeBytes { raw -> StationHistory in
            var offset = 0
            func need(_ count: Int) throws {
                guard count >= 0, count <= raw.count - offset else { throw malformed("truncated at byte \(offset)") }
            }
            func u32() throws -> UInt32 {
                try need(4)
                defer { offset += 4 }
                return UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
            }
            try need(magic.count)
            guard raw[0..<magic.count].elementsEqual(magic) else { throw malformed("not a station history (bad magic)") }
            offset = magic.count
            let count = Int(try u32())
            guard count <= maxTracks else { throw malformed("\(count) tracks") }
            var tracks: [UInt64: PriceTrack] = [:]
            tracks.reserveCapacity(count)
            for _ in 0..<count {
                try need(8)
                let key = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                offset += 8
                guard StationHistory.station(of: key).rawValue > 0, StationHistory.fuel(of: key) != nil, tracks[key] == nil else {
                    throw malformed("bad track key \(key)")
                }
                let markCount = Int(try u32())
                guard markCount > 0, markCount <= maxMarksPerTrack else { throw malformed("track of \(markCount) changes") }
                try need(markCount * 6)
                var marks: [PriceMark] = []
                marks.reserveCapacity(markCount)
                for _ in 0..<markCount {
                    let seconds = Int32(bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
                    let tenths = Int16(bitPattern: UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: offset + 4, as: UInt16.self)))
                    offset += 6
                    guard seconds >= 0, tenths > 0, marks.last.map({ $0.seconds < seconds }) ?? true else {
                        throw malformed("bad change at byte \(offset - 6)")
                    }
                    marks.append(PriceMark(seconds: seconds, tenths: tenths))
                }
                tracks[key] = PriceTrack(marks)
            }
            guard offset == raw.count else { throw malformed("trailing bytes") }
            return StationHistory(tracks: tracks)
        }
    }
}
