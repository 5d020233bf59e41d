import Fuel
import HTTP
#if canImport(Glibc)
import Glibc
#endif

/// `Run`'s whole behaviour, returning the process exit code.
public enum Entrypoint {
    public static let version = "0.1.0"

    public static func main(arguments: [String], environment: [String: String]) -> Int32 {
        let command: Command
        let config: AppConfiguration
        do {
            (command, config) = try CommandLineParser.parse(arguments, environment: environment)
        } catch {
            printError("error: \(error)\n\n\(CommandLineParser.usage)")
            return 2
        }
        switch command {
        case .help:
            print(CommandLineParser.usage)
            return 0
        case .backtest:
            do {
                let report = try BacktestReport.run()
                print(report.text + "\n\n" + report.markdown)
                return 0
            } catch {
                printError("error: \(error)")
                return 1
            }
        case .routes:
            do {
                let app = try buildApplication(config, logger: Logger(label: "petty", level: .error)).app
                print(RouteTable.render(app.routes))
                return 0
            } catch {
                printError("error: \(error)")
                return 1
            }
        case .serve:
            return serve(config)
        case .dataCheck(let directory):
            let report = DataCheck(path: directory).run()
            print(report.text)
            return report.ok ? 0 : 1
        case .dataCopy(let from, let to):
            do {
                print(try DataCopy(from: from, to: to).run().text)
                print("copied \(from) to \(to)")
                return 0
            } catch {
                printError("error: \(error)")
                return 1
            }
        case .dataUnpin(let directory):
            do {
                let version = try DataUnpin(path: directory).run()
                print("unpinned \(directory): v\(version) is now v0; the leader's next dataset will be taken")
                return 0
            } catch {
                printError("error: \(error)")
                return 1
            }
        case .export:
            let directory = DataDirectory(path: config.dataDirectory, logger: Logger(label: "petty", level: .error, sink: .standardError))
            let loaded = directory.load()
            guard loaded.hadSnapshot, let json = try? StoredJSON.encoder.encode(loaded.dataset.snapshot) else {
                printError("error: no readable snapshot in \(config.dataDirectory)")
                return 1
            }
            print(String(decoding: json, as: UTF8.self))
            return 0
        }
    }

    static func serve(_ config: AppConfiguration) -> Int32 {
        let logger = Logger(label: "petty", level: config.logLevel)
        // Each poll parses megabytes of provider JSON: with glibc's moving threshold those buffers settled in the heap
        // and the resident size grew poll after poll (`SCENARIOS=memory_polls Benchmarks/bench.sh`).
        if !MemoryPressure.mapLargeAllocationsAlone() { logger.warning("memory: the allocator refused a fixed mmap threshold") }
        do {
            let app = try buildApplication(config, logger: logger).app
            logger.notice("Petty \(version) starting: env=\(config.environment) listen=\(config.hostname):\(config.port) threads=\(app.server.threads) pid=\(getpid())")
            try app.run()
            return 0
        } catch let ended as ServiceEndedError {
            logger.error("stopped because \(ended); exiting 1 so the supervisor restarts the server")
            return 1
        } catch let error as ListenerError {
            logger.error("cannot listen: \(error)")
            return 1
        } catch {
            logger.error("cannot start: \(error)")
            return 1
        }
    }

    static func printError(_ message: String) {
        var line = message + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}
