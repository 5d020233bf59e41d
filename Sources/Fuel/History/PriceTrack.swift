import Foundation
import Synchronization

/// One station's marks for one fuel, oldest first, 6 bytes a mark, in storage that successive datasets share.
///
/// Every merge makes a new dataset while the published one is still read, so an ordinary array would be copied
/// on each append (and the copies fragment the heap: 90 days cost twice the data in RSS). Here a track is a
/// window (`start..<end`) onto an append-only buffer: appending at the buffer's tip claims the next slot
/// atomically and writes it in place, so older values (which never read past their own `end`) are unaffected.
/// A value that is not at the tip (another value appended first), or a full buffer, copies into a new buffer
/// an eighth larger.
public struct PriceTrack: Sendable {
    final class Buffer: @unchecked Sendable {
        let capacity: Int
        let bytes: UnsafeMutableRawPointer
        /// Slots written so far; claimed with compare-exchange so two values extending the same tip cannot both win.
        let used: Atomic<Int>

        init(capacity: Int) {
            self.capacity = capacity
            bytes = UnsafeMutableRawPointer.allocate(byteCount: capacity * PriceTrack.stride, alignment: 4)
            used = Atomic(0)
        }

        deinit { bytes.deallocate() }

        func write(_ mark: PriceMark, at slot: Int) {
            bytes.storeBytes(of: mark.seconds, toByteOffset: slot * PriceTrack.stride, as: Int32.self)
            bytes.storeBytes(of: mark.tenths, toByteOffset: slot * PriceTrack.stride + 4, as: Int16.self)
        }

        func read(_ slot: Int) -> PriceMark {
            PriceMark(
                seconds: bytes.loadUnaligned(fromByteOffset: slot * PriceTrack.stride, as: Int32.self),
                tenths: bytes.loadUnaligned(fromByteOffset: slot * PriceTrack.stride + 4, as: Int16.self))
        }
    }

    static let stride = 6

    private var buffer: Buffer?
    // Int32 keeps a track at 16 bytes in the dictionary (a track never holds 2^31 marks).
    private var first: Int32 = 0
    private var past: Int32 = 0
    private var start: Int {
        get { Int(first) }
        set { first = Int32(newValue) }
    }
    private var end: Int {
        get { Int(past) }
        set { past = Int32(newValue) }
    }

    public init() {}

    public init(_ marks: [PriceMark]) {
        guard !marks.isEmpty else { return }
        let buffer = Buffer(capacity: marks.count)
        for (slot, mark) in marks.enumerated() { buffer.write(mark, at: slot) }
        buffer.used.store(marks.count, ordering: .releasing)
        self.buffer = buffer
        end = marks.count
    }

    public var count: Int { end - start }
    public var isEmpty: Bool { end == start }
    public var last: PriceMark? { isEmpty ? nil : buffer!.read(end - 1) }
    public subscript(position: Int) -> PriceMark { buffer!.read(start + position) }
    public var marks: [PriceMark] { (0..<count).map { self[$0] } }

    /// Bytes this track's buffer holds (shared buffers are counted by each track that uses them).
    public var allocatedBytes: Int { (buffer?.capacity ?? 0) * Self.stride }

    public mutating func append(_ mark: PriceMark) {
        if let buffer, end < buffer.capacity,
            buffer.used.compareExchange(expected: end, desired: end + 1, ordering: .acquiringAndReleasing).exchanged
        {
            buffer.write(mark, at: end)
            end += 1
            return
        }
        let grown = Buffer(capacity: count + 1 + Swift.max(2, count / 8))
        for position in 0..<count { grown.write(self[position], at: position) }
        grown.write(mark, at: count)
        grown.used.store(count + 1, ordering: .releasing)
        end = count + 1
        start = 0
        buffer = grown
    }

    /// Replaces the newest mark (a second price within the same second).
    public mutating func replaceLast(with mark: PriceMark) {
        var marks = self.marks
        marks[marks.count - 1] = mark
        self = PriceTrack(marks)
    }

    /// Forgets the `count` oldest marks (the buffer is shared, so only the window moves).
    public mutating func removeFirst(_ count: Int) {
        start += Swift.min(count, self.count)
        // Once most of a buffer is forgotten, copy the rest so the old marks' memory is returned.
        if let buffer, start > buffer.capacity / 2 { self = PriceTrack(marks) }
    }
}

extension PriceTrack: Hashable {
    public static func == (lhs: PriceTrack, rhs: PriceTrack) -> Bool {
        if lhs.buffer === rhs.buffer && lhs.start == rhs.start && lhs.end == rhs.end { return true }
        return lhs.count == rhs.count && (0..<lhs.count).allSatisfy { lhs[$0] == rhs[$0] }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for position in 0..<count { hasher.combine(self[position]) }
    }
}
