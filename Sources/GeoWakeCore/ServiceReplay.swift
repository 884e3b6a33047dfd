/// Runs any fix-fed `LocationService` over a sequence of fixes on the fixes' own clock: the loop `geowake
/// replay` and the daemon share.
///
/// A fix's time is its `now`. Fixes without a time (a GGA before any date was seen) cannot be placed on that
/// clock, and fixes whose time goes back are not fed; both are counted. Events fall due inside `update`
/// (services fire what fell due before a fix's `now` first), so a replay needs no timer; `finish(at:)` fires
/// what falls due after the last fix. The event buffer is reused from fix to fix, so the steady state
/// allocates nothing. Inlinable, so that a caller's replay is compiled for its own service type: a replay
/// of a million fixes otherwise pays a generic call and generic array operations on each.
public struct ServiceReplay<Service: LocationService> where Service.Input == Fix {
    public var service: Service
    @usableFromInline var fed = 0
    @usableFromInline var undated = 0
    @usableFromInline var wentBack = 0
    @usableFromInline var lastTime: Timestamp?
    @usableFromInline var events: [Service.Event] = []

    @inlinable
    public init(_ service: Service) {
        self.service = service
    }

    /// Fixes fed to the service.
    @inlinable public var replayed: Int { fed }
    /// Fixes skipped for having no time.
    @inlinable public var withoutTime: Int { undated }
    /// Fixes skipped for a time earlier than the previous fed fix's.
    @inlinable public var backwards: Int { wentBack }
    /// The time of the last fed fix.
    @inlinable public var clock: Timestamp? { lastTime }

    /// Feeds one fix, handing the events it causes (when there are any) to `body` as one batch. Returns
    /// whether the fix was fed (false for one skipped without a time or going back).
    @inlinable @discardableResult
    public mutating func feed(_ fix: Fix, _ body: ([Service.Event]) throws -> Void) rethrows -> Bool {
        guard let now = fix.time else { undated += 1; return false }
        if let lastTime, now < lastTime { wentBack += 1; return false }
        lastTime = now
        fed += 1
        service.update(with: fix, at: now, events: &events)
        guard !events.isEmpty else { return true }
        defer { events.removeAll(keepingCapacity: true) }
        try body(events)
        return true
    }

    /// Feeds every fix of `fixes` in order.
    @inlinable
    public mutating func feed(_ fixes: some Sequence<Fix>, _ body: ([Service.Event]) throws -> Void) rethrows {
        for fix in fixes { try feed(fix, body) }
    }

    /// Lets go of the event buffer kept for the next fix, for a caller that holds many replays idle (a fleet
    /// worker's devices between their messages); the next fix with events allocates it again.
    @inlinable
    public mutating func releaseEventBuffer() {
        events = []
    }

    /// Fires what falls due up to `now` (a live caller's clock, or the end of a trace) without a new fix.
    @inlinable
    public mutating func finish(at now: Timestamp, _ body: ([Service.Event]) throws -> Void) rethrows {
        service.advance(to: now, events: &events)
        guard !events.isEmpty else { return }
        defer { events.removeAll(keepingCapacity: true) }
        try body(events)
    }
}
