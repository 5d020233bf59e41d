extension HealthController.HealthDTO {
    /// What anyone may see: statuses, counts and times. Error texts and load problems name data-directory paths
    /// and provider or leader URLs, so they stay with the allowed addresses (`PETTY_FOLLOWERS`, like `/metrics`).
    func withoutInternals() -> Self {
        var copy = self
        copy.providers = providers.map { provider in
            var provider = provider
            provider.lastError = nil
            return provider
        }
        copy.follow?.leader = nil
        copy.follow?.lastError = nil
        copy.persistence?.lastError = nil
        copy.persistence?.lastLoad.problems = nil
        copy.alerts = alerts.withoutInternals()
        copy.coordination?.leader.url = nil
        copy.coordination?.dataset.lastError = nil
        if copy.coordination?.degraded != nil { copy.coordination?.degraded = "behind the published dataset" }
        return copy
    }
}
