import Coordination

/// The outbox is fenced with the fleet's own token (generation, revision): one type, so a decision is checked
/// against exactly what the coordinator issued.
public typealias FenceToken = FleetFenceToken
