import Testing
@testable import Postgres

struct PostgresURLTests {
    @Test func aTCPURLGivesUserPasswordHostPortAndDatabase() throws {
        let configuration = try PostgresConfiguration(url: "postgres://petty:s3cret@db.internal:6543/alerts")
        #expect(configuration.endpoint == .tcp(host: "db.internal", port: 6543))
        #expect(configuration.user == "petty")
        #expect(configuration.password == "s3cret")
        #expect(configuration.database == "alerts")
    }

    @Test func thePortDefaultsTo5432AndTheDatabaseToTheUser() throws {
        let configuration = try PostgresConfiguration(url: "postgresql://petty@127.0.0.1")
        #expect(configuration.endpoint == .tcp(host: "127.0.0.1", port: 5432))
        #expect(configuration.database == "petty")
        #expect(configuration.password == nil)
    }

    @Test func percentEscapesAreDecodedInEveryPart() throws {
        let configuration = try PostgresConfiguration(url: "postgres://us%40er:p%3Aa%2Fs%40s%25w@localhost/my%20db")
        #expect(configuration.user == "us@er")
        #expect(configuration.password == "p:a/s@s%w")
        #expect(configuration.database == "my db")
    }

    @Test func aHostParameterStartingWithSlashIsASocketDirectory() throws {
        let configuration = try PostgresConfiguration(url: "postgres:///petty?host=/var/run/postgresql")
        #expect(configuration.endpoint == .unixSocket(path: "/var/run/postgresql/.s.PGSQL.5432"))
        #expect(configuration.database == "petty")
    }

    @Test func aPercentEncodedSocketDirectoryAndPortNameTheSocketFile() throws {
        let configuration = try PostgresConfiguration(url: "postgres://petty@%2Ftmp%2Fpg/petty?port=5499")
        #expect(configuration.endpoint == .unixSocket(path: "/tmp/pg/.s.PGSQL.5499"))
    }

    @Test func noHostAtAllMeansDebiansSocketDirectory() throws {
        let configuration = try PostgresConfiguration(url: "postgres:///petty")
        #expect(configuration.endpoint == .unixSocket(path: "/var/run/postgresql/.s.PGSQL.5432"))
    }

    @Test func anIPv6HostInBracketsKeepsItsColons() throws {
        let configuration = try PostgresConfiguration(url: "postgres://u@[::1]:5433/db")
        #expect(configuration.endpoint == .tcp(host: "::1", port: 5433))
    }

    @Test func sslmodesThatNeedNoTLSAreAccepted() throws {
        for mode in ["disable", "allow", "prefer"] {
            _ = try PostgresConfiguration(url: "postgres://u@h/db?sslmode=\(mode)")
        }
    }

    @Test func sslmodesThatDemandTLSAreRefusedWithWhatToDoInstead() {
        for mode in ["require", "verify-ca", "verify-full"] {
            #expect {
                _ = try PostgresConfiguration(url: "postgres://u@h/db?sslmode=\(mode)")
            } throws: { error in
                let text = "\(error)"
                return text.contains("local socket") && text.contains("private network") && text.contains("TLS tunnel")
            }
        }
    }

    @Test func badPortsSchemesEscapesAndUnknownParametersAreRefused() {
        for url in ["mysql://u@h/db", "postgres://u@h:0/db", "postgres://u@h:99999/db", "postgres://u@h:x/db",
                    "postgres://u:%zz@h/db", "postgres://u@h/db?sslmode=sometimes", "postgres://u@h/db?options=-c"] {
            #expect(throws: PostgresError.self, "\(url)") { _ = try PostgresConfiguration(url: url) }
        }
    }

    @Test func thePasswordNeverAppearsInTheDescriptionOrInAnError() throws {
        let configuration = try PostgresConfiguration(url: "postgres://petty:hunter2@h/db")
        #expect(!configuration.description.contains("hunter2"))
        #expect(configuration.description.contains("password set"))
        do {
            _ = try PostgresConfiguration(url: "postgres://petty:hunter2%G@h/db")
            Issue.record("a bad escape was accepted")
        } catch {
            #expect(!"\(error)".contains("hunter2"))
            #expect("\(error)".contains("password"))
        }
    }
}
