import ArgumentParser
import ProcessLifecycle

/// The launcher's budgets and limits, in seconds; tests shorten them.
struct LifecycleOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: "Background time a launched or thawed client gets before it is suspended.") var budget: Double = 10
    @Option(parsing: .unconditional, help: "Background tasks extend the time to at most this much after the launch or thaw.") var backgroundTaskLimit: Double = 180
    @Option(parsing: .unconditional, help: "How long before the end of its time a client with open background tasks is warned.") var expirationWarning: Double = 5
    @Option(parsing: .unconditional, help: "SIGTERM to SIGKILL.") var terminationGrace: Double = 5
    @Option(parsing: .unconditional, help: "Above this many suspended clients the least recently used is terminated.") var maxSuspended: Int = 8
    @Option(parsing: .unconditional, help: "An unclean exit this soon after a launch counts as a crash.") var crashWindow: Double = 10
    @Option(parsing: .unconditional, help: "The first backoff after repeated crashes, doubled per further crash.") var crashBackoff: Double = 2
    @Option(parsing: .unconditional, help: "Background time a client launched or woken for a background fetch has to report its result.") var fetchBudget: Double = 30

    func settings() throws -> LifecycleSettings {
        for (name, value) in [("--budget", budget), ("--background-task-limit", backgroundTaskLimit),
                              ("--expiration-warning", expirationWarning), ("--termination-grace", terminationGrace),
                              ("--crash-window", crashWindow), ("--crash-backoff", crashBackoff), ("--fetch-budget", fetchBudget)] {
            guard value.isFinite, value >= 0 else { throw ValidationError("\(name) must be a number of seconds >= 0, not \(value)") }
        }
        guard maxSuspended >= 0 else { throw ValidationError("--max-suspended must be >= 0, not \(maxSuspended)") }
        var settings = LifecycleSettings()
        settings.budget = budget
        settings.backgroundTaskLimit = max(backgroundTaskLimit, budget)
        settings.expirationWarning = expirationWarning
        settings.terminationGrace = terminationGrace
        settings.maxSuspended = maxSuspended
        settings.crashWindow = crashWindow
        settings.backoff = crashBackoff
        settings.fetchBudget = fetchBudget
        return settings
    }
}
