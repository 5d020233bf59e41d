import HTTP
import Testing
@testable import API
@testable import App

@Suite struct CommandLineTests {
    @Test func flagsOverrideEnvironmentFallbacks() throws {
        let env = ["PETTY_PORT": "9000", "PETTY_HOSTNAME": "0.0.0.0", "PETTY_ENV": "production", "PETTY_LOG_LEVEL": "debug", "PETTY_DATA_DIR": "/var/lib/petty"]
        let (command, config) = try CommandLineParser.parse(["serve", "-p", "8081", "--hostname=::", "--threads", "3"], environment: env)
        #expect(command == .serve)
        #expect(config.port == 8081)
        #expect(config.hostname == "::")
        #expect(config.threads == 3)
        #expect(config.environment == .production)
        #expect(config.logLevel == .debug)
        #expect(config.dataDirectory == "/var/lib/petty")
    }

    @Test func serveIsTheDefaultCommandAndRoutesIsKnown() throws {
        #expect(try CommandLineParser.parse([], environment: [:]).0 == .serve)
        #expect(try CommandLineParser.parse(["routes"], environment: [:]).0 == .routes)
        #expect(try CommandLineParser.parse(["serve", "-e", "prod"], environment: [:]).1.environment == .production)
    }

    @Test(arguments: [
        (["serve", "--port", "70000"], "port"), (["serve", "--port"], "needs a value"), (["serve", "--bogus"], "unknown option"),
        (["launch"], "unknown command"), (["serve", "--log-level", "loud"], "log-level"), (["serve", "--threads", "0"], "thread"),
    ])
    func badArgumentsAreClearErrors(arguments: [String], mentions: String) {
        #expect {
            try CommandLineParser.parse(arguments, environment: [:])
        } throws: { "\($0)".contains(mentions) }
    }

    @Test func badEnvironmentValuesAreClearErrors() {
        #expect(throws: CommandLineError.self) { try CommandLineParser.parse([], environment: ["PETTY_PORT": "http"]) }
        #expect(throws: CommandLineError.self) { try CommandLineParser.parse([], environment: ["PETTY_TRUSTED_PROXIES": "10.0.0.0/99"]) }
        #expect(throws: CommandLineError.self) { try CommandLineParser.parse([], environment: ["PETTY_SAMPLE_DATA": "maybe"]) }
    }

    @Test func thePublicURLComesFromTheFlagOverTheEnvironmentAndDefaultsToTheListenAddress() throws {
        let env = ["PETTY_PUBLIC_URL": "https://petty.example/"]
        #expect(try CommandLineParser.parse([], environment: env).1.publicBaseURL.description == "https://petty.example")
        #expect(try CommandLineParser.parse(["--public-url", "http://fuel.example:8080"], environment: env).1.publicBaseURL.description == "http://fuel.example:8080")
        #expect(try CommandLineParser.parse(["-p", "9001"], environment: ["PETTY_HOSTNAME": "10.1.2.3"]).1.publicBaseURL.description == "http://10.1.2.3:9001")
    }

    @Test(arguments: ["petty.example", "ftp://petty.example", "https://petty.example/?utm=1", "https://petty.example/#x"])
    func aBadPublicURLFailsStartupNamingIt(value: String) {
        #expect { try CommandLineParser.parse([], environment: ["PETTY_PUBLIC_URL": value]) } throws: { "\($0)".contains("PETTY_PUBLIC_URL") }
        #expect { try CommandLineParser.parse(["--public-url", value], environment: [:]) } throws: { "\($0)".contains("--public-url") }
    }

    @Test func androidAppLinksNeedAPackageAndValidFingerprints() throws {
        let fingerprint = Array(repeating: "AB", count: 32).joined(separator: ":")
        let config = try CommandLineParser.parse([], environment: ["PETTY_ANDROID_PACKAGE": "au.petty.app", "PETTY_ANDROID_CERT_SHA256": fingerprint]).1
        #expect(config.android == (try AndroidAppLink(package: "au.petty.app", fingerprints: fingerprint)))
        #expect(try CommandLineParser.parse([], environment: [:]).1.android == nil)
        for (package, cert, mentions) in [
            ("au.petty.app", "", "PETTY_ANDROID_CERT_SHA256"), ("", fingerprint, "PETTY_ANDROID_PACKAGE"),
            ("au.petty.app", "AB:CD", "PETTY_ANDROID_CERT_SHA256"), ("petty", fingerprint, "PETTY_ANDROID_PACKAGE"),
        ] {
            #expect { try CommandLineParser.parse([], environment: ["PETTY_ANDROID_PACKAGE": package, "PETTY_ANDROID_CERT_SHA256": cert]) } throws: {
                "\($0)".contains(mentions)
            }
        }
    }

    @Test func routeTableListsEveryRoute() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let rows = Set(RouteTable.render(app.routes).split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") })
        for route in ["GET /v1/stations", "GET /v1/stations/:id", "GET /v1/prices/cheapest", "GET /v1/prices/changes", "GET /v1/averages", "GET /v1/trends", "GET /v1/tomorrow", "GET /health"] {
            #expect(rows.contains(route), "missing \(route)")
        }
    }
}

@Suite struct ServerLimitsEnvironmentTests {
    @Test func limitsAndTimeoutsComeFromTheEnvironment() throws {
        let (_, config) = try CommandLineParser.parse([], environment: [
            "PETTY_IDLE_TIMEOUT_SECONDS": "15", "PETTY_HEADER_TIMEOUT_SECONDS": "3", "PETTY_MAX_CONNECTIONS": "500",
            "PETTY_MAX_BODY_BYTES": "2048",
        ])
        #expect(config.server.idleTimeoutSeconds == 15)
        #expect(config.server.headerTimeoutSeconds == 3)
        #expect(config.server.maxConnections == 500)
        #expect(config.server.limits.maxBodyBytes == 2048)
        #expect(config.server.writeTimeoutSeconds == ServerConfiguration().writeTimeoutSeconds)
    }

    @Test func theBodyDeadlineComesFromTheFlagOverItsEnvironmentFallback() throws {
        let (_, fromEnv) = try CommandLineParser.parse([], environment: ["PETTY_BODY_TIMEOUT_SECONDS": "12", "PETTY_BODY_IDLE_TIMEOUT_SECONDS": "4"])
        #expect(fromEnv.server.bodyTimeoutSeconds == 12 && fromEnv.server.bodyIdleTimeoutSeconds == 4)
        let (_, fromFlag) = try CommandLineParser.parse(["serve", "--body-timeout", "7"], environment: ["PETTY_BODY_TIMEOUT_SECONDS": "12"])
        #expect(fromFlag.server.bodyTimeoutSeconds == 7)
        #expect(try CommandLineParser.parse([], environment: [:]).1.server.bodyTimeoutSeconds == 30)
        #expect { try CommandLineParser.parse(["--body-timeout=0"], environment: [:]) } throws: { "\($0)".contains("--body-timeout") }
    }

    @Test func outOfRangeLimitsAreStartupErrors() {
        #expect { try CommandLineParser.parse([], environment: ["PETTY_IDLE_TIMEOUT_SECONDS": "0"]) } throws: { "\($0)".contains("PETTY_IDLE_TIMEOUT_SECONDS") }
        #expect { try CommandLineParser.parse([], environment: ["PETTY_MAX_CONNECTIONS": "many"]) } throws: { "\($0)".contains("PETTY_MAX_CONNECTIONS") }
    }
}
