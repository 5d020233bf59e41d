import Testing
@testable import HTTP

/// The connection state machine driven the way the event loop drives it, with a fake socket: what the client
/// sends goes in, what the machine would send is collected, and the socket's send room is set by the test.
@Suite("Connection state machine, without sockets")
struct ConnectionMachineTests {
    struct FakeHost: ConnectionHost {
        var isDraining = false
        let serverName = Array("petty-test".utf8)
        var served: [String] = []

        /// `/later...`: answered off the loop, when the test calls `Driver.arrive`.
        mutating func respond(to head: consuming HTTPRequestHead, body: [UInt8]) -> Response? {
            served.append("\(head.method.rawValue) \(head.target) \(body.count)")
            if head.target.hasPrefix("/later") { return nil }
            if head.target == "/close" {
                var response = Response(text: "bye")
                response.headers.replaceOrAdd(name: "Connection", value: "close")
                return response
            }
            if head.target.hasPrefix("/big/"), let size = Int(head.target.dropFirst(5)) {
                return Response(contentType: "application/octet-stream", body: FakeHost.bigBody(size))
            }
            return Response(text: "ok \(head.target)")
        }

        /// A body whose every byte depends on its position and size, so a misplaced slice shows.
        static func bigBody(_ size: Int) -> [UInt8] { (0..<size).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ size) } }

        /// `/refused...`: answered whatever the body (as a route miss is).
        func answersWithoutBody(_ head: HTTPRequestHead) -> Bool { head.target.hasPrefix("/refused") }

        func date() -> [UInt8] { Array("Thu, 01 Jan 1970 00:00:00 GMT".utf8) }
        var refusals: [Int] = []
        mutating func refused(_ status: HTTPStatus, reason: String) { refusals.append(status.code) }
    }

    /// Plays the event loop: performs every action, with a socket that takes at most `room` bytes (nil: all).
    struct Driver {
        var machine: ConnectionMachine
        var host = FakeHost()
        var wire: [UInt8] = []
        var room: Int?
        var closed = false
        var shutDown = false
        var now: Int64 = 0

        static let settings = ConnectionMachine.Settings(
            parser: HTTPRequestParser(), headerTimeout: 10_000, bodyTimeout: 40_000, bodyIdleTimeout: 30_000,
            idleTimeout: 60_000,
            writeTimeout: 20_000, maxPendingOutputBytes: 4096)

        init(settings: ConnectionMachine.Settings = Driver.settings, room: Int? = nil) {
            machine = ConnectionMachine(settings: settings, now: 0)
            self.room = room
        }

        var responses: [RawResponse] { RawResponse.parseAll(wire) }
        var statuses: [Int] { responses.map(\.status) }

        mutating func receive(_ text: String, at time: Int64? = nil, eof: Bool = false) {
            receive(Array(text.utf8), at: time, eof: eof)
        }

        mutating func receive(_ bytes: [UInt8], at time: Int64? = nil, eof: Bool = false) {
            precondition(!closed, "read on a closed connection")
            if let time { now = time }
            bytes.withUnsafeBytes { machine.received($0, now: now) }
            perform(machine.readCompleted(now: now, host: &host))
            if eof && !closed { perform(machine.peerClosed()) }
        }

        mutating func tick(at time: Int64) {
            now = time
            perform(machine.tick(now: now, host: &host))
        }

        /// The response made off the loop arrives.
        mutating func arrive(_ text: String) {
            perform(machine.responseArrived(Response(text: text), now: now, host: &host))
        }

        /// The socket became writable with `room` more bytes of space.
        mutating func writable(room: Int?) {
            self.room = room
            perform(.flush)
        }

        mutating func perform(_ first: ConnectionAction) {
            var action = first
            while !closed {
                switch action {
                case .none: return
                case .close: closed = true
                case .shutdownWrite:
                    shutDown = true
                    action = .none
                case .flush:
                    action = flush()
                }
            }
        }

        private mutating func flush() -> ConnectionAction {
            while machine.pendingOutbound > 0 {
                let take = min(machine.pendingOutbound, room ?? Int.max)
                if take == 0 { return machine.sendBlocked() }
                // Like sendmsg: as much of the offered pieces as there is room for.
                let taken = machine.withPendingOutput { vectors in
                    var left = take
                    for vector in vectors where left > 0 {
                        let piece = UnsafeRawBufferPointer(start: vector.iov_base, count: min(vector.iov_len, left))
                        wire.append(contentsOf: piece)
                        left -= piece.count
                    }
                    return take - left
                }
                machine.sent(taken, now: now)
                if let room { self.room = room - taken }
            }
            return machine.outputDrained(now: now, host: &host)
        }
    }

    static let get = "GET /a HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test("Pipelined requests in one read are all answered, in order, and the connection stays open")
    func pipelined() {
        var driver = Driver()
        driver.receive(Self.get + "GET /b HTTP/1.1\r\nHost: x\r\n\r\nPOST /c HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
        #expect(driver.responses.map(\.bodyString) == ["ok /a", "ok /b", "ok /c"])
        #expect(driver.host.served == ["GET /a 0", "GET /b 0", "POST /c 3"])
        #expect(!driver.closed && !driver.shutDown && driver.machine.state == .open && driver.machine.wantsRead)
    }

    @Test("A request arriving a byte at a time is answered once, after its last byte")
    func partialReads() {
        let request = Array("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello".utf8)
        var driver = Driver()
        for (offset, byte) in request.enumerated() {
            driver.receive([byte], at: Int64(offset))
            #expect(driver.wire.isEmpty == (offset < request.count - 1), "after byte \(offset)")
        }
        #expect(driver.host.served == ["POST /p 5"])
        #expect(driver.machine.pendingInbound == 0)
    }

    @Test("A client that connects and sends nothing is closed silently once the header timeout has passed")
    func silentClientHeaderTimeout() {
        var driver = Driver()
        driver.tick(at: 10_000)
        #expect(!driver.closed)
        driver.tick(at: 10_001)
        #expect(driver.closed && driver.wire.isEmpty)
    }

    @Test("A head still incomplete when the header time (counted from accept) is up gets 408, then the close")
    func headerTimeout() {
        var driver = Driver()
        driver.receive("GET /slow HTTP/1.1\r\nHo", at: 9_000)
        driver.tick(at: 10_000)
        #expect(driver.wire.isEmpty)
        driver.tick(at: 10_001)
        #expect(driver.statuses == [408])
        #expect(driver.responses.first?.header("Connection") == "close")
        #expect(driver.shutDown && driver.machine.isLingering && !driver.closed)
        // Lingering: late bytes are discarded, and the descriptor goes at the linger deadline.
        driver.receive("st: x\r\n\r\n", at: 10_500)
        #expect(driver.host.served.isEmpty)
        driver.tick(at: 12_001)
        #expect(driver.closed)
    }

    @Test("Once the head is in, a slow body is held to the body timeout since the last read, not the header one")
    func bodyTimeout() {
        var driver = Driver()
        driver.receive("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 10\r\n\r\nabc", at: 1_000)
        driver.receive("de", at: 8_000)
        driver.tick(at: 20_000)  // past the header timeout from accept, within the body timeout since 8 000
        #expect(driver.wire.isEmpty && !driver.shutDown)
        driver.tick(at: 38_000)
        #expect(driver.wire.isEmpty)
        driver.tick(at: 38_001)
        #expect(driver.statuses == [408])
        #expect(driver.host.served.isEmpty)
    }

    @Test("A body trickled one byte every 5 s gets 408 at its deadline, though no pause reaches the idle timeout")
    func bodyDeadline() {
        var driver = Driver()
        driver.receive("POST /up HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n", at: 1_000)
        var time: Int64 = 1_000
        while time + 5_000 <= 41_000 {
            time += 5_000
            driver.receive("a", at: time)
            driver.tick(at: time)
        }
        #expect(driver.wire.isEmpty, "408 before the deadline: \(driver.statuses)")
        driver.tick(at: 41_001)
        #expect(driver.statuses == [408])
        #expect(driver.shutDown || driver.machine.state == .closingAfterFlush)
        #expect(driver.host.served.isEmpty)
    }

    @Test("Between requests a keep-alive connection is closed after the idle timeout since its last read")
    func idleTimeout() {
        var driver = Driver()
        driver.receive(Self.get, at: 5_000)
        #expect(driver.statuses == [200])
        driver.tick(at: 65_000)
        #expect(!driver.closed)
        driver.tick(at: 65_001)
        #expect(driver.closed)
        #expect(driver.statuses == [200])
    }

    @Test("A client that does not read: reading pauses at the output limit and resumes once it drains")
    func writeBackpressure() throws {
        var driver = Driver(room: 0)
        let many = String(repeating: Self.get, count: 200)
        driver.receive(many)
        #expect(driver.machine.wantsWrite)
        #expect(!driver.machine.wantsRead, "reading must pause while the client is not reading")
        let answeredWhilePaused = driver.host.served.count
        #expect(answeredWhilePaused < 200)
        #expect(driver.machine.pendingOutbound >= Driver.settings.maxPendingOutputBytes)
        #expect(driver.machine.pendingOutbound < Driver.settings.maxPendingOutputBytes + 1024)

        driver.writable(room: 1000)
        #expect(driver.wire.count == 1000)
        #expect(driver.machine.wantsWrite && !driver.machine.wantsRead)

        driver.writable(room: nil)
        #expect(driver.host.served.count == 200)
        #expect(driver.statuses.count == 200)
        #expect(!driver.machine.wantsWrite && driver.machine.wantsRead && !driver.closed)
    }

    @Test("Large bodies queued by reference and small ones copied leave in order, whole, through partial sends",
          arguments: [97, 1500, 16_384, 70_000])
    func partialSendsAcrossPieces(room: Int) {
        // Either side of the threshold, and more shared pieces than one send takes.
        let shared = OutboundQueue.sharedBodyBytes
        let sizes = [2 * shared + 5, 0, shared, shared - 1, 10]
            + Array(repeating: shared + 7, count: OutboundQueue.maxPiecesPerSend + 1)
        var driver = Driver(room: 0)
        driver.receive(sizes.map { $0 == 0 ? Self.get : "GET /big/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
        var sends = 0
        while driver.host.served.count < sizes.count || driver.machine.pendingOutbound > 0 {
            driver.writable(room: room)
            sends += 1
            if sends > 200_000 { break }
        }
        let responses = driver.responses
        #expect(responses.count == sizes.count)
        for (response, size) in zip(responses, sizes) {
            #expect(response.status == 200)
            #expect(size == 0 ? response.bodyString == "ok /a" : response.body == FakeHost.bigBody(size))
        }
        #expect(driver.machine.pendingOutbound == 0 && driver.machine.wantsRead && !driver.closed)
    }

    @Test("A HEAD for a large body sends its head alone")
    func headOfLargeBody() {
        var driver = Driver()
        driver.receive("HEAD /big/50000 HTTP/1.1\r\nHost: x\r\n\r\n" + Self.get)
        let text = String(decoding: driver.wire, as: UTF8.self)
        #expect(text.contains("Content-Length: 50000\r\n"))
        #expect(driver.wire.count < 400, "the 50,000-byte body must not be sent for HEAD")
        #expect(text.hasSuffix("ok /a"))
    }

    @Test("Output the client never takes is dropped after the write timeout")
    func writeTimeout() {
        var driver = Driver(room: 0)
        driver.receive(Self.get, at: 1_000)
        // Counted from the last send that made progress, or from accept when none did.
        driver.tick(at: 20_000)
        #expect(!driver.closed)
        driver.tick(at: 20_001)
        #expect(driver.closed)
    }

    @Test("Connection: close from the client or the application ends the connection after the response")
    func connectionClose() {
        var client = Driver()
        client.receive("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" + Self.get)
        #expect(client.statuses == [200])
        #expect(client.responses.first?.header("Connection") == "close")
        #expect(client.host.served == ["GET /a 0"], "nothing after Connection: close is answered")
        #expect(client.shutDown && client.machine.isLingering, "a pipelined request came after it: linger")
        client.receive([], eof: true)
        #expect(client.closed)

        var alone = Driver()
        alone.receive("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(alone.statuses == [200] && alone.closed && !alone.shutDown, "nothing more is coming: no linger")

        var app = Driver()
        app.receive("GET /close HTTP/1.1\r\nHost: x\r\n\r\n" + Self.get)
        #expect(app.statuses == [200] && app.shutDown)
    }

    @Test("HTTP/1.0 closes after the response unless it asks for keep-alive")
    func http10() {
        var plain = Driver()
        plain.receive("GET /a HTTP/1.0\r\n\r\n")
        #expect(plain.statuses == [200] && plain.closed && !plain.shutDown, "nothing more is coming: no linger")
        #expect(plain.responses.first?.header("Connection") == "close")

        var keepAlive = Driver()
        keepAlive.receive("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\nGET /b HTTP/1.0\r\n\r\n")
        #expect(keepAlive.statuses == [200, 200])
        #expect(keepAlive.responses.first?.header("Connection")?.lowercased() == "keep-alive")
        #expect(keepAlive.closed, "the second request did not ask to stay open")
    }

    @Test("A request that cannot be parsed is answered with its status and Connection: close, then closed",
          arguments: [
              ("GET / HTTP/1.1\r\n\r\n", 400),
              ("POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999\r\n\r\n", 413),
              ("GET /" + String(repeating: "a", count: 9000), 414),
              ("GET / HTTP/1.1\r\nHost: x\r\nX: " + String(repeating: "v", count: 40_000), 431),
          ])
    func errorsClose(_ request: String, _ status: Int) {
        var driver = Driver()
        driver.receive(Self.get + request + Self.get)
        #expect(driver.statuses == [200, status])
        #expect(driver.responses.last?.header("Connection") == "close")
        #expect(driver.host.served == ["GET /a 0"])
        #expect(driver.shutDown && driver.machine.isLingering)
        driver.tick(at: 2_001)
        #expect(driver.closed)
    }

    @Test("A response made off the loop holds the pipelined requests behind it, answered after it, in order")
    func offLoopResponseKeepsPipelinedOrder() {
        var driver = Driver()
        driver.receive("GET /later HTTP/1.1\r\nHost: x\r\n\r\n" + Self.get)
        #expect(driver.wire.isEmpty && driver.host.served == ["GET /later 0"])
        #expect(!driver.machine.wantsRead && driver.machine.isBusy)
        // However long the handler takes, the connection's clocks do not close it meanwhile.
        driver.tick(at: 120_000)
        #expect(!driver.closed)
        driver.arrive("late")
        #expect(driver.responses.map(\.bodyString) == ["late", "ok /a"])
        #expect(driver.host.served == ["GET /later 0", "GET /a 0"])
        #expect(!driver.closed && driver.machine.wantsRead && !driver.machine.isBusy)
    }

    @Test("A client that closes while its response is made off the loop still gets it, then the close")
    func offLoopResponseAfterEOF() {
        var driver = Driver()
        driver.receive("GET /later HTTP/1.1\r\nHost: x\r\n\r\n", eof: true)
        #expect(!driver.closed && driver.wire.isEmpty)
        driver.arrive("late")
        #expect(driver.responses.map(\.bodyString) == ["late"] && driver.closed)
    }

    @Test("The client's EOF: answer what was complete, then close")
    func peerClosed() {
        var driver = Driver()
        driver.receive(Self.get, eof: true)
        #expect(driver.statuses == [200] && driver.closed)

        var blocked = Driver(room: 0)
        blocked.receive(Self.get, eof: true)
        #expect(!blocked.closed && blocked.machine.state == .closingAfterFlush)
        blocked.writable(room: nil)
        #expect(blocked.statuses == [200] && blocked.closed)
    }

    @Test("Expect: 100-continue gets the interim response once the head is in; another expectation is 417")
    func expectContinue() {
        var driver = Driver()
        driver.receive("POST /u HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
        #expect(String(decoding: driver.wire, as: UTF8.self) == "HTTP/1.1 100 Continue\r\n\r\n")
        driver.receive("ok")
        #expect(driver.statuses == [200] && driver.host.served == ["POST /u 2"])

        var other = Driver()
        other.receive("POST /u HTTP/1.1\r\nHost: x\r\nExpect: something\r\nContent-Length: 2\r\n\r\n")
        #expect(other.statuses == [417] && other.shutDown)
    }

    @Test("Expect: 100-continue for a request refused whatever its body gets the answer, no 100, and a close")
    func expectContinueRefusedWithoutBody() {
        var driver = Driver()
        driver.receive("PUT /refused HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        #expect(!String(decoding: driver.wire, as: UTF8.self).contains("100 Continue"))
        #expect(driver.statuses == [200] && driver.host.served == ["PUT /refused 0"])
        #expect(driver.responses.first?.header("Connection") == "close")
        // The body, sent anyway, is discarded: never parsed as a next request.
        driver.receive("GET /x")
        #expect(driver.host.served == ["PUT /refused 0"])
    }

    @Test("While the server drains, a response ends its connection")
    func draining() {
        var driver = Driver()
        driver.host.isDraining = true
        driver.receive(Self.get + Self.get)
        #expect(driver.statuses == [200])
        #expect(driver.responses.first?.header("Connection") == "close")
        #expect(driver.shutDown)
    }
}
