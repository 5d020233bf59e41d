import Fuel
import HTTP

/// `GET /v1/fuels` and `GET /v1/brands` (overall and per state), encoded once per snapshot.
struct ReferenceResponses: Sendable {
    let fuels: Response
    /// `/v1/brands` without `state`.
    let brands: Response
    /// By `AustralianState.allCases` position.
    let brandsByState: [Response]

    static func render(_ snapshot: Snapshot, meta: (AustralianState?) -> DataMeta, lastModified: String) -> ReferenceResponses {
        func encode<T: Encodable>(_ rows: [T], state: AustralianState?) -> Response {
            let envelope = Envelope(data: rows, meta: MetaDTO(meta(state), total: rows.count))
            // Encoding plain DTOs cannot fail; a failure here would be a programming error.
            return (try? JSONResponse.content(envelope, lastModified: lastModified, maxAge: 300, memoized: true))
                ?? Response(status: .internalServerError)
        }
        return ReferenceResponses(
            fuels: encode(ReferenceLists.fuels(in: snapshot).map(FuelListingDTO.init), state: nil),
            brands: encode(ReferenceLists.brands(in: snapshot).map(BrandListingDTO.init), state: nil),
            brandsByState: AustralianState.allCases.map { state in
                encode(ReferenceLists.brands(in: snapshot, state: state).map(BrandListingDTO.init), state: state)
            })
    }

    func brands(in state: AustralianState?) -> Response {
        guard let state else { return brands }
        return brandsByState[AustralianState.allCases.firstIndex(of: state)!]
    }
}
