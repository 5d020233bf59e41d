/// One client socket on an event loop: its descriptor, its HTTP state machine, and the epoll interest
/// registered for it. Owned and touched only by its event loop's thread.
final class Connection {
    let fd: Int32
    let peer: String
    /// Unique on its loop: an answer made off the loop is written only if its connection is still this one.
    let serial: UInt64
    var machine: ConnectionMachine
    /// The events epoll currently watches for this descriptor (changed only when the machine wants otherwise);
    /// nil until the descriptor joins the epoll set, which a client answered and closed on its first read never does.
    var registeredEvents: UInt32?

    init(fd: Int32, peer: String, serial: UInt64, machine: ConnectionMachine) {
        self.fd = fd
        self.peer = peer
        self.serial = serial
        self.machine = machine
    }
}
