import Coordination
import Foundation

/// When a follower downloads the published pointer. Never from its own dataset URL: a deposed leader that merged a
/// version it could not publish reads its own older pointer, and downloading its own dataset changes nothing while
/// each download costs a whole encode. A download that changed nothing or failed is tried again only after a
/// delay that doubles up to `maximumDelay` (a lease), and a refused pointer not at all; a new pointer is due at once.
struct CopySchedule {
    enum Decision: Equatable {
        case copy
        /// The pointer names this member's own dataset.
        case own
        case refused
        case backingOff(until: Double)
    }

    let ownURL: String
    let minimumDelay: Double
    let maximumDelay: Double
    private var last: (pointer: DatasetPointer, retryAt: Double, delay: Double)?

    init(ownURL: String, minimumDelay: Double = 0.25, maximumDelay: Double) {
        self.ownURL = ownURL
        self.minimumDelay = minimumDelay
        self.maximumDelay = max(minimumDelay, maximumDelay)
    }

    func decision(for pointer: DatasetPointer, at now: Double) -> Decision {
        if Self.sameResource(pointer.url, ownURL) { return .own }
        guard let last, last.pointer == pointer else { return .copy }
        if last.retryAt == .infinity { return .refused }
        return now < last.retryAt ? .backingOff(until: last.retryAt) : .copy
    }

    mutating func record(_ outcome: FleetCopier.Outcome, for pointer: DatasetPointer, at now: Double) {
        switch outcome {
        case .applied:
            last = nil
        case .refused:
            last = (pointer, .infinity, maximumDelay)
        case .unchanged, .failed:
            let previous = last?.pointer == pointer ? last?.delay : nil
            let delay = previous.map { min(maximumDelay, $0 * 2) } ?? minimumDelay
            last = (pointer, now + delay, delay)
        }
    }

    /// Scheme, host (case-insensitively), port and path alike: `http://H:8080/x` and `http://h:8080/x` are one.
    static func sameResource(_ a: String, _ b: String) -> Bool {
        guard let a = URLComponents(string: a), let b = URLComponents(string: b) else { return a == b }
        return a.scheme?.lowercased() == b.scheme?.lowercased() && a.host?.lowercased() == b.host?.lowercased()
            && (a.port ?? defaultPort(a.scheme)) == (b.port ?? defaultPort(b.scheme)) && a.path == b.path
    }

    private static func defaultPort(_ scheme: String?) -> Int? {
        switch scheme?.lowercased() {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}
