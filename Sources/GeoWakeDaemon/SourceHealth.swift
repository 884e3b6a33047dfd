import GeoWakeCore
import GPSD

/// Whether the source can tell subscribers where the device is, decided from its state reports, its fixes and the
/// clock. Each call returns the `status` event to send when the health changed, nil otherwise; the first healthy
/// state is not announced (subscribers assume a working source), every later change is.
public struct SourceHealth {
    public struct Limits: Sendable {
        /// Running with no fix for this long is `noFix`.
        public var noFixAfter: Double
        /// A fix whose horizontal accuracy is worse than this decides no region state: `poorAccuracy`.
        public var poorAccuracy: Double

        public init(noFixAfter: Double = 30, poorAccuracy: Double = 200) {
            self.noFixAfter = noFixAfter
            self.poorAccuracy = poorAccuracy
        }
    }

    enum State: String {
        case running, noFix, unavailable, poorAccuracy
    }

    struct Change: Equatable {
        var state: String
        var message: String
    }

    let limits: Limits
    private(set) var state: State?
    private var lastFixAt: Double?
    private var watchingSince: Double?

    init(limits: Limits) { self.limits = limits }

    /// The source's own report (gpsd gone, device silent, receiver without a position).
    mutating func observe(_ report: SourceState, at now: Double) -> Change? {
        switch report {
        case .idle:
            watchingSince = nil
            lastFixAt = nil
            return nil
        case .connecting, .watching:
            if watchingSince == nil { watchingSince = now }
            return nil
        case .fixing:
            return nil   // the fix that follows says whether it is good enough
        case .noFix:
            return become(.noFix, "the receiver reports no position")
        case .silent:
            return become(.noFix, "the receiver reports nothing")
        case .unavailable(let reason):
            return become(.unavailable, reason)
        }
    }

    /// A fix; returns whether it may decide region states, and the change it causes.
    mutating func observe(_ fix: Fix, at now: Double) -> (decides: Bool, change: Change?) {
        lastFixAt = now
        if let accuracy = fix.horizontalAccuracy, accuracy > limits.poorAccuracy {
            let message = "horizontal accuracy \(Int(accuracy.rounded())) m is worse than \(Int(limits.poorAccuracy)) m"
            return (false, become(.poorAccuracy, message))
        }
        return (true, become(.running, "fixes are flowing"))
    }

    /// The clock alone: a source that watches but gave no fix for `noFixAfter` seconds.
    mutating func check(at now: Double) -> Change? {
        guard let since = lastFixAt ?? watchingSince, now - since >= limits.noFixAfter, state != .noFix,
              state != .unavailable else { return nil }
        return become(.noFix, "no fix for \(Int(limits.noFixAfter)) s")
    }

    /// Seconds until `check` may have something to say, nil when nothing is pending.
    func nextCheck(at now: Double) -> Double? {
        guard let since = lastFixAt ?? watchingSince, state != .noFix, state != .unavailable else { return nil }
        return max(0, since + limits.noFixAfter - now)
    }

    private mutating func become(_ next: State, _ message: String) -> Change? {
        let previous = state
        guard previous != next else { return nil }
        state = next
        if previous == nil && next == .running { return nil }
        return Change(state: next.rawValue, message: message)
    }
}
