import GeoWakeCore

/// How cautiously the region monitor turns noisy fixes into `enter` and `exit`.
///
/// The defaults keep the monitor close to pure geometry while refusing to guess: accuracy gating alone
/// already acts as a hysteresis band as wide as the receiver's own error estimate, so hysteresis and
/// debounce start at zero and are there for users who want more caution than the receiver claims to need.
public struct RegionMonitorConfiguration: Hashable, Sendable {
    /// Metres: an exit needs the fix this far outside the boundary (on top of its accuracy radius when gating).
    public var hysteresis: Double
    /// Seconds a change must hold, with no decisive fix against it, before it is reported.
    public var debounce: Double
    /// When true, a fix whose accuracy circle (radius `horizontalAccuracy`) straddles a boundary decides
    /// nothing for that region. Fixes without an accuracy estimate are taken as exact.
    public var accuracyGating: Bool
    /// When true, a region that the straight segment between two consecutive fixes passes through, while
    /// neither fix lies in it, yields `enter` then `exit` at the second fix, marked `crossed`.
    public var segmentCrossing: Bool

    public init(hysteresis: Double = 0, debounce: Double = 0, accuracyGating: Bool = true, segmentCrossing: Bool = false) {
        self.hysteresis = hysteresis
        self.debounce = debounce
        self.accuracyGating = accuracyGating
        self.segmentCrossing = segmentCrossing
    }

    /// No hysteresis, no debounce, no accuracy gating: the events are then exactly the differences between
    /// the sets of regions containing consecutive fixes.
    public static func exact(segmentCrossing: Bool = false) -> RegionMonitorConfiguration {
        RegionMonitorConfiguration(hysteresis: 0, debounce: 0, accuracyGating: false, segmentCrossing: segmentCrossing)
    }

    /// Metres: wider than any geofence worth monitoring; the daemon and `replay` refuse more alike.
    public static let maximumHysteresis = 100_000.0
    /// Seconds: a day.
    public static let maximumDebounce = 86_400.0

    /// Throws a sentence naming the first option that is out of range.
    public func validate() throws(InvalidServiceConfiguration) {
        try InvalidServiceConfiguration.requireRange(hysteresis, "hysteresis", unit: "metres", maximum: Self.maximumHysteresis)
        try InvalidServiceConfiguration.requireRange(debounce, "debounce", unit: "seconds", maximum: Self.maximumDebounce)
    }
}
