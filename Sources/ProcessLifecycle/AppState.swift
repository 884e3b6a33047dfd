import GeoWakeCore
import GeoWakeProtocol

/// A client's state as the daemon sees it.
public enum AppState: String, Sendable, Codable {
    /// No process: never started, ended, or force-quit; the next event launches it (unless disabled, or
    /// force-quit with relaunch after force-quit off).
    case notRunning
    /// Started by the user (it connected without being launched); never suspended.
    case running
    /// Launched or thawed by the daemon, running on a budget.
    case background
    /// Its process group is stopped; the next event thaws it.
    case suspended
    /// Sent SIGTERM; SIGKILL follows after the grace period.
    case terminating
    /// Died soon after each of several launches; relaunched only after a growing backoff.
    case crashLoop
}

/// What the daemon must do for the lifecycle; the state machine itself does no I/O.
public enum LifecycleAction: Hashable, Sendable {
    case launch(client: String, reason: LaunchReason)
    case thaw(client: String)
    case suspend(client: String)
    /// Tell the client its background time ends soon, so its expiration handlers run.
    case expirationWarning(client: String)
    case terminate(client: String)
    case kill(client: String)
    /// Tell the client to perform its background fetch now (at once when connected, else once it registers).
    case fetch(client: String)
}

/// Daemon-wide lifecycle settings, in seconds.
public struct LifecycleSettings: Hashable, Sendable {
    /// Background time after a launch or thaw.
    public var budget: Double = 10
    /// Background tasks extend the time to at most this much after the launch or thaw.
    public var backgroundTaskLimit: Double = 180
    /// How long before the end the expiration warning goes out.
    public var expirationWarning: Double = 5
    /// SIGTERM to SIGKILL.
    public var terminationGrace: Double = 5
    /// Above this many suspended clients, the least recently used is terminated.
    public var maxSuspended: Int = 8
    /// An unclean exit this soon after the start counts as a crash.
    public var crashWindow: Double = 10
    /// This many crashes in a row make a crash loop.
    public var crashLoopThreshold: Int = 3
    /// The first crash-loop backoff, doubled per further crash up to `maxBackoff`.
    public var backoff: Double = 2
    public var maxBackoff: Double = 300
    /// A background fetch's own background time: its result is due within it.
    public var fetchBudget: Double = 30

    public init() {}
}

/// One client's lifecycle record: what `geowake status` shows and the store keeps.
public struct AppRecord: Hashable, Sendable, Codable {
    public var options: LaunchOptions
    public var state: AppState = .notRunning
    /// Disabled by the library's explicit stop or `geowake disable`: never launched.
    public var disabled = false
    /// Ended by someone other than the daemon, with relaunch after force-quit off: not launched until the
    /// user starts it again.
    public var forceQuit = false
    public var lastLaunchReason: LaunchReason?
    public var lastExit: ProcessExit?
    /// Consecutive crashes.
    public var crashes = 0
    public var startedAt: Timestamp?
    /// When the current background period began (launch or thaw).
    public var backgroundSince: Timestamp?
    public var budgetEnds: Timestamp?
    public var killAt: Timestamp?
    public var relaunchAt: Timestamp?
    public var openTasks: Set<Int> = []
    public var nextTaskID = 1
    public var usedTasks = false
    public var warned = false
    /// A background mode's activity runs (standard updates for `location`, ranging for `bluetooth-central`); the
    /// stored key keeps its first name.
    public var continuousLocation = false
    /// An event that arrived while the client could not be launched yet.
    public var pendingReason: LaunchReason?
    public var lastUsed: Timestamp?
    /// Its background fetch schedule; nil when it asked for none. Optional, so records stored before it read nil.
    public var fetch: BackgroundFetchSchedule?

    public init(options: LaunchOptions) {
        self.options = options
    }

    /// Whether a background mode keeps it running now.
    public var usesLocationInBackground: Bool { options.hasBackgroundMode && continuousLocation }
}
