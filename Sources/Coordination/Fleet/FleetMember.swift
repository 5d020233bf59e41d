/// What the coordinator needs from the member it runs for; it knows nothing about what the dataset holds.
public protocol FleetMember: Sendable {
    /// The version of the dataset this member serves.
    var heldVersion: UInt64 { get }
    /// Whether the dataset held has live data from some provider (not only the bundled samples).
    var holdsLiveData: Bool { get }
    /// The highest id this member has ever issued (stored under `/<fleet>/ids`).
    var idMark: Int64 { get }
    /// The fleet's id mark as read from etcd: the member never issues an id at or below it again.
    func adopt(idMark: Int64)
    /// The generation persisted with the member's data (0 and no cluster when nothing was).
    var generation: FleetGeneration { get }
    /// Persists `generation` with the member's data before the coordinator acts on it; false when it could not.
    func persist(_ generation: FleetGeneration) -> Bool
    /// While leading under `token`: the pointer to publish when the held dataset is newer than `published`, else nil.
    func publication(after published: DatasetPointer?, token: FleetFenceToken) async -> DatasetPointer?
}
