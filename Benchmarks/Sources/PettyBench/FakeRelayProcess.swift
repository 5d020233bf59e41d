import FakeRelay
import Foundation

/// `fake-relay`: Tests/FakeRelay (gorush's `POST /api/push`, every push accepted) as a process of its own on a
/// loopback port, for the `alert-send` row. Prints "port N", then each second "relay: N notifications in M requests".
enum FakeRelayProcess {
    static func run(_ options: Options) throws {
        let relay = try FakeRelay().start()
        say("port \(relay.port)")
        while true {
            Thread.sleep(forTimeInterval: 1)
            say("relay: \(relay.received.count) notifications in \(relay.requests) requests")
        }
    }

    /// A line on standard output, written at once (the bench reads it from a file while this runs).
    private static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }
}
