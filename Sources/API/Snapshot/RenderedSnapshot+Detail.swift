import Foundation
import Fuel
import HTTP

extension RenderedSnapshot {
    /// `GET /v1/stations/:id` (and the share link's JSON) at `wall`: the ready response, unless the station's hours
    /// have moved `open_now` since the render, when the body is re-assembled from the ready fragment.
    /// `view` is the one this was rendered for; only a station with access data is read whole.
    func detailResponse(slot: Int, in view: PettyView, wall: Date) -> Response {
        let snapshot = view.snapshot
        guard snapshot.entries[slot].station.access != nil else { return detailResponses[slot] }
        let station = snapshot.entries[slot].station
        let open = OpenNowJudge(clocks: view.clocks, wall: wall)(station)
        guard StationEncoding.openNowByte(open) != openNowAtRender[slot] else { return detailResponses[slot] }
        let meta = detailMetaByState[AustralianState.allCases.firstIndex(of: station.state)!]
        var hash = FNV1a(value: hashes[slot])
        hash.combine(StationEncoding.openNowByte(open))
        hash.combine(meta.hash)
        return JSONResponse.make(
            body: StationEncoding.detailBody(fragment: fragments[slot], openNow: open, meta: meta), etag: hash.etag,
            lastModified: lastModified)
    }
}
