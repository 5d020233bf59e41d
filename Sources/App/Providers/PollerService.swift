import API
import Foundation
import Fuel
import HTTP
import Providers

/// Runs the provider pollers with the server: one task per provider, started with the app and cancelled on
/// shutdown (SIGTERM). Registered even when no provider is enabled, so the start-up log says so.
final class PollerService: Service {
    let name = "pollers"
    let group: PollerGroup
    let summary: String
    let quotaFits: Bool
    private let logger: Logger
    /// A cancelled request ends at once; allow for one request deadline in case it does not.
    let stopTimeout: Double

    init(settings: ProviderSettings, sink: any ProviderSink, logger: Logger, pollers: [any ProviderPoller]? = nil) {
        let pollers = pollers ?? ProviderPollers.make(settings)
        let log = PollLog { [logger] level, message in
            switch level {
            case .debug: logger.debug(message)
            case .info: logger.info(message)
            case .notice: logger.notice(message)
            case .warning: logger.warning(message)
            case .error: logger.error(message)
            }
        }
        self.group = PollerGroup(pollers: pollers, sink: sink, log: log)
        self.summary = ProviderPollers.summary(settings, pollers: pollers)
        self.quotaFits = ProviderPollers.nswQuota(settings)?.fits ?? true
        self.logger = logger
        self.stopTimeout = settings.requestTimeout + 2
    }

    func run() async throws {
        logger.notice(summary)
        if !quotaFits { logger.warning("the NSW plan exceeds the free quota of \(ProviderPollers.nswMonthlyQuota) calls a month") }
        await group.run()
        if !group.pollers.isEmpty { logger.info("pollers stopped") }
    }
}

/// Registers the pollers on `app` (they start with `app.start()`/`run()`, never in in-memory tests).
@discardableResult
func registerProviderPollers(_ app: Application, config: AppConfiguration, store: PettyStore, logger: Logger) -> PollerService {
    let service = PollerService(settings: config.providers, sink: FuelStoreSink(store: store), logger: logger.labelled("providers"))
    app.register(service: service)
    return service
}

extension Application {
    /// The registered pollers' status store (what `/health` reads), nil in follower mode.
    var pollerStatuses: ProviderStatusStore? {
        services.lazy.compactMap { ($0 as? PollerService)?.group.statuses }.first
    }
}
