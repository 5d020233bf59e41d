import AlertStore
import API
import Foundation
import Fuel
import HTTP
import Postgres
import Push

/// The evaluator and the sender, built from what the alerts runtime provides. `Application+build.swift` registers
/// them once the database is configured (see `register(in:)`).
package struct AlertServices {
    let evaluator: AlertEvaluatorService
    let sender: AlertSenderService

    /// `PETTY_PUSH_URL`, `PETTY_PUSH_AUTHORIZATION`, `PETTY_PUSH_TOPIC` come from `environment`; without a push URL
    /// decisions are still made and wait in the outbox.
    package init(
        client: PostgresClient, store: PettyStore, config: AppConfiguration, leadership: @escaping AlertLeadership,
        health: @escaping AlertsHealthUpdate, logger: Logger, environment: [String: String] = ProcessInfo.processInfo.environment,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        let log = logger.labelled("alerts")
        let push = try PushSettings(environment: environment).map { GorushClient(settings: $0, log: { line in log.notice(line) }) }
        evaluator = AlertEvaluatorService(client: client, current: { store.current.index }, leadership: leadership, health: health, logger: log, clock: clock)
        sender = AlertSenderService(client: client, push: push, shareBase: config.publicBaseURL, mayAct: { leadership() != nil },
                                    health: health, logger: log, clock: clock)
    }

    package func register(in app: Application) {
        app.register(service: evaluator)
        app.register(service: sender)
    }
}
