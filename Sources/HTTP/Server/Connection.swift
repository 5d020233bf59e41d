/// One client socket on an event loop: its descriptor, its HTTP state machine, and the epoll interest
/// registered for it. Owned and touched only by its event loop's thread.
final class Connection {
    let fd: Int32
    let peer: String
    var machine: ConnectionMachine
    /// The events epoll currently watches for this descriptor (changed only when the machine wants otherwise).
    var registeredEvents: UInt32

    init(fd: Int32, peer: String, machine: ConnectionMachine, registeredEvents: UInt32) {
        self.fd = fd
        self.peer = peer
        self.machine = machine
        self.registeredEvents = registeredEvents
    }
}
