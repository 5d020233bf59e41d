import Testing
@testable import HTTP

@Suite struct TrustedProxyMiddlewareTests {
    /// An app whose `/x` route echoes the client address the middleware settled on.
    func app(trusted: [String] = TrustedProxyMiddleware.defaultTrusted) -> Application {
        makeTestApp { app in
            app.middleware.insert(TrustedProxyMiddleware(trusted: trusted), at: 0)
            app.get("x") { req in req.clientAddress }
        }
    }

    func client(_ app: Application, peer: String, _ headers: HTTPHeaders = [:]) throws -> String {
        try app.test(.GET, "/x", headers: headers, peer: peer).bodyString
    }

    @Test func aTrustedPeerPassesTheForwardedClientOn() throws {
        let app = app()
        #expect(try client(app, peer: "127.0.0.1", ["X-Forwarded-For": "203.0.113.7"]) == "203.0.113.7")
        #expect(try client(app, peer: "::1", ["X-Forwarded-For": "203.0.113.7"]) == "203.0.113.7")
    }

    @Test func anUntrustedPeerCannotSpoofItsAddress() throws {
        let app = app()
        #expect(try client(app, peer: "198.51.100.9", ["X-Forwarded-For": "127.0.0.1"]) == "198.51.100.9")
        #expect(try client(app, peer: "198.51.100.9", ["X-Real-IP": "10.0.0.1"]) == "198.51.100.9")
    }

    @Test func withoutHeadersTheClientIsThePeer() throws {
        #expect(try client(app(), peer: "127.0.0.1") == "127.0.0.1")
    }

    @Test func multiHopChainsAreWalkedFromTheRightPastTrustedProxies() throws {
        let app = app(trusted: ["127.0.0.1", "10.0.0.0/8"])
        // client -> CDN edge (untrusted) -> our load balancer 10.1.1.1 -> nginx 127.0.0.1 -> us
        #expect(try client(app, peer: "127.0.0.1", ["X-Forwarded-For": "203.0.113.7, 10.1.1.1"]) == "203.0.113.7")
        #expect(try client(app, peer: "127.0.0.1", ["X-Forwarded-For": "192.0.2.1, 203.0.113.7, 10.2.2.2, 10.1.1.1"]) == "203.0.113.7")
    }

    @Test func spoofedLeftmostEntriesAreIgnored() throws {
        let app = app()
        // The client sent `X-Forwarded-For: 1.1.1.1, 127.0.0.1`; nginx appended the real address.
        #expect(try client(app, peer: "127.0.0.1", ["X-Forwarded-For": "1.1.1.1, 127.0.0.1, 198.51.100.9"]) == "198.51.100.9")
    }

    @Test func repeatedHeadersAreOneListInOrder() throws {
        let app = app()
        let headers = HTTPHeaders([("X-Forwarded-For", "1.1.1.1"), ("X-Forwarded-For", "198.51.100.9")])
        #expect(try client(app, peer: "127.0.0.1", headers) == "198.51.100.9")
    }

    @Test func whenEveryHopIsTrustedTheLeftmostIsTheClient() throws {
        let app = app(trusted: ["127.0.0.1", "10.0.0.0/8"])
        #expect(try client(app, peer: "127.0.0.1", ["X-Forwarded-For": "10.9.9.9, 10.1.1.1"]) == "10.9.9.9")
    }

    @Test func garbageStopsTheWalkAtTheLastVouchedHop() throws {
        let app = app(trusted: ["127.0.0.1", "10.0.0.0/8"])
        #expect(try client(app, peer: "127.0.0.1", ["X-Forwarded-For": "1.1.1.1, not-an-ip, 10.1.1.1"]) == "10.1.1.1")
        #expect(try client(app, peer: "127.0.0.1", ["X-Forwarded-For": "unknown"]) == "127.0.0.1")
    }

    @Test func xRealIPIsUsedWithoutXForwardedFor() throws {
        let app = app()
        #expect(try client(app, peer: "127.0.0.1", ["X-Real-IP": "203.0.113.7"]) == "203.0.113.7")
        #expect(try client(app, peer: "127.0.0.1", ["X-Real-IP": "nonsense"]) == "127.0.0.1")
        #expect(try client(app, peer: "127.0.0.1", ["X-Real-IP": "203.0.113.7", "X-Forwarded-For": "198.51.100.9"]) == "198.51.100.9")
    }

    @Test func ipv6PeersClientsAndRangesWork() throws {
        let app = app(trusted: ["::1", "fd00::/8"])
        #expect(try client(app, peer: "::1", ["X-Forwarded-For": "2001:db8::7, fd12::1"]) == "2001:db8::7")
        #expect(try client(app, peer: "fd00::5", ["X-Forwarded-For": "[2001:DB8::7]:51000"]) == "2001:db8::7")
        #expect(try client(app, peer: "2001:db8::1", ["X-Forwarded-For": "2001:db8::7"]) == "2001:db8::1")
        // An IPv4 peer is not in an IPv6-only list.
        #expect(try client(app, peer: "127.0.0.1", ["X-Forwarded-For": "2001:db8::7"]) == "127.0.0.1")
    }

    @Test func forwardedAddressesMayCarryPorts() throws {
        #expect(try client(app(), peer: "127.0.0.1", ["X-Forwarded-For": "203.0.113.7:4711"]) == "203.0.113.7")
    }

    @Test func cidrRangesMatchOnPrefixBits() throws {
        let range = try #require(IPAddressRange("10.0.0.0/8"))
        #expect(range.contains(try #require(IPAddress("10.255.0.1"))))
        #expect(!range.contains(try #require(IPAddress("11.0.0.1"))))
        let narrow = try #require(IPAddressRange("192.168.1.64/26"))
        #expect(narrow.contains(try #require(IPAddress("192.168.1.127"))))
        #expect(!narrow.contains(try #require(IPAddress("192.168.1.128"))))
        #expect(try #require(IPAddressRange("172.16.5.4/12")).description == "172.16.0.0/12")
        #expect(try #require(IPAddressRange("0.0.0.0/0")).contains(try #require(IPAddress("8.8.8.8"))))
        let v6 = try #require(IPAddressRange("2001:db8::/32"))
        #expect(v6.contains(try #require(IPAddress("2001:db8:ffff::1"))))
        #expect(!v6.contains(try #require(IPAddress("2001:db9::1"))))
        #expect(!v6.contains(try #require(IPAddress("32.1.13.184"))))
    }

    @Test func ipv4MappedIPv6AddressesCountAsIPv4() throws {
        let app = app()
        #expect(try client(app, peer: "::ffff:127.0.0.1", ["X-Forwarded-For": "::ffff:203.0.113.7"]) == "203.0.113.7")
    }

    @Test func theEnvironmentListIsParsed() throws {
        let ranges = try TrustedProxyMiddleware.parse(" 127.0.0.1, ::1 ,10.0.0.0/8,, fd00::/8 ")
        #expect(ranges.map(\.description) == ["127.0.0.1/32", "::1/128", "10.0.0.0/8", "fd00::/8"])
        #expect(try TrustedProxyMiddleware.parse("").isEmpty)
        let app = makeTestApp { app in
            app.middleware.insert(TrustedProxyMiddleware(ranges: ranges), at: 0)
            app.get("x") { req in req.clientAddress }
        }
        #expect(try client(app, peer: "10.3.3.3", ["X-Forwarded-For": "203.0.113.7"]) == "203.0.113.7")
    }

    @Test(arguments: ["10.0.0.0/33", "nginx", "10.0.0", "::1/129", "1.2.3.4:80", "10.0.0.0/", "10.0.0.0/8/8", "[::1]", "fe80::1%eth0", "/8", "10.0.0.0/-1"])
    func invalidEntriesAreErrorsNamingTheEntry(entry: String) throws {
        #expect(throws: TrustedProxyMiddleware.InvalidEntry(entry: entry)) {
            try TrustedProxyMiddleware.parse("127.0.0.1, \(entry)")
        }
        let message = String(describing: TrustedProxyMiddleware.InvalidEntry(entry: entry))
        #expect(message.contains("'\(entry)'"))
    }
}
