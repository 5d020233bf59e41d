import Clocks
/// Wraps one route's whole chain (middleware included) to count its requests and time them, on the counters of
/// the event loop the request arrived on.
struct MeasuredResponder: Responder {
    let slot: Int
    let metrics: HTTPMetrics
    let inner: Responder

    func respond(to request: Request) throws -> Response {
        let started = MonotonicClock.micros()
        do {
            let response = try inner.respond(to: request)
            metrics.record(slot: slot, status: response.status.code, micros: MonotonicClock.micros() - started, loop: request.id.loop)
            return response
        } catch {
            // Nothing in the chain rendered it: the server answers 500.
            metrics.record(slot: slot, status: 500, micros: MonotonicClock.micros() - started, loop: request.id.loop)
            throw error
        }
    }
}
