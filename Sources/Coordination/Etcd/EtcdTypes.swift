/// One key as etcd returns it. `createRevision` is the revision that created the key: the fleet's epoch.
public struct EtcdKeyValue: Equatable, Sendable {
    public var key: String
    public var value: [UInt8]
    public var createRevision: Int64 = 0
    public var modRevision: Int64 = 0
    public var lease: Int64 = 0
}

/// A granted lease: its id and the TTL etcd actually gave (it may raise a TTL below its minimum).
public struct EtcdLease: Equatable, Sendable {
    public var id: Int64
    public var ttl: Int64
}

/// A put inside a transaction, optionally attached to a lease.
public struct EtcdPut: Equatable, Sendable {
    public var key: String
    public var value: [UInt8]
    public var lease: Int64 = 0
}

/// `create_revision(key) == revision`: 0 means "the key does not exist".
public struct EtcdCreateRevisionEquals: Equatable, Sendable {
    public var key: String
    public var revision: Int64
}

/// A transaction's outcome. A put in a succeeded transaction happened at `revision`, so a key it created has
/// `create_revision == revision`.
public struct EtcdTxnResult: Equatable, Sendable {
    public var succeeded: Bool
    public var revision: Int64
}
