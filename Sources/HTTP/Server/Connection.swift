/// One client socket on an event loop: its descriptor, its HTTP state machine, and the epoll interest
/// registered for it. Owned and touched only by its event loop's thread.
final class Connection {
    let fd: Int32
    let peer: String
    var machine: ConnectionMachine
    /// The events epoll currently watches for this descriptor (changed only when the machine wants otherwise);
    /// nil until the descriptor joins the epoll set, which a client answered and closed on its first read never does.
    var registeredEvents: UInt32?

    init(fd: Int32, peer: String, machine: ConnectionMachine) {
        self.fd = fd
        self.peer = peer
        self.machine = machine
    }
}
