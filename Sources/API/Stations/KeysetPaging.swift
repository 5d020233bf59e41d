import Fuel

/// `meta.next_after` on station lists in id order: the last id of this page while more follow (ask again with
/// `after=<it>`), null on the last page. Unlike `offset`, a station removed or added between pages shifts nothing.
enum KeysetPaging {
    static func writeNextAfter(_ page: SlotPage, entries: [StationEntry], into json: inout some JSONOutput) {
        json.raw(",\"next_after\":")
        if page.hasMore, let last = page.hits.last {
            json.int(entries[last.slot].id.rawValue)
        } else {
            json.raw("null")
        }
    }
}
