import Fuel

/// Route searches answered again within a snapshot: the page of stations a request's exact text found (the GET's
/// raw query, the POST's body), kept so that asking again skips decoding the route and searching its corridor.
/// The page is kept, not the response: the body is written from it on each request (a few µs), so `open_now` is
/// judged at each request's clock and an entry lives as long as its snapshot, at a fortieth of a body's bytes.
/// A search with `open_now=true` depends on the clock and is never kept.
enum AlongPageMemo {
    /// About 4,000 routes of 20 stations at a kilobyte of polyline each; the oldest goes first.
    static let limits = SnapshotMemo.Limits(entries: 8_192, bytes: 8 << 20)

    static func key(query rawQuery: String) -> SnapshotMemo.Key {
        SnapshotMemo.Key(kind: "along?", detail: rawQuery)
    }

    static func key(body text: String) -> SnapshotMemo.Key {
        SnapshotMemo.Key(kind: "along body", detail: text)
    }

    /// What keeping `page` under `key` costs: its hits, the key's text and the entry's bookkeeping.
    static func bytes(_ page: AlongPage, key: SnapshotMemo.Key) -> Int {
        page.hits.count * MemoryLayout<AlongHit>.stride + key.detail.utf8.count + 160
    }
}
