/// Runs any fix-fed `LocationService` over a sequence of fixes on the fixes' own clock: the loop `geowake
/// replay` and the daemon share.
///
/// A fix's time is its `now`. Fixes without a time (a GGA before any date was seen) cannot be placed on that
/// clock, and fixes whose time goes back are not fed; both are counted. Events fall due inside `update`
/// (services fire what fell due before a fix's `now` first), so a replay needs no timer; `finish(at:)` fires
/// what falls due after the last fix. The event buffer is reused from fix to fix, so the steady state
/// allocates nothing.
public struct ServiceReplay<Service: LocationService> where Service.Input == Fix {
    public var service: Service
    /// Fixes fed to the service.
    public private(set) var replayed = 0
    /// Fixes skipped for having no time.
    public private(set) var withoutTime = 0
    /// Fixes skipped for a time earlier than the previous fed fix's.
    public private(set) var backwards = 0
    /// The time of the last fed fix.
    public private(set) var clock: Timestamp?
    private var events: [Service.Event] = []

    public init(_ service: Service) {
        self.service = service
    }

    /// Feeds one fix, handing the events it causes (when there are any) to `body` as one batch.
    public mutating func feed(_ fix: Fix, _ body: ([Service.Event]) throws -> Void) rethrows {
        guard let now = fix.time else { withoutTime += 1; return }
        if let clock, now < clock { backwards += 1; return }
        clock = now
        replayed += 1
        service.update(with: fix, at: now, events: &events)
        guard !events.isEmpty else { return }
        defer { events.removeAll(keepingCapacity: true) }
        try body(events)
    }

    /// Feeds every fix of `fixes` in order.
    public mutating func feed(_ fixes: some Sequence<Fix>, _ body: ([Service.Event]) throws -> Void) rethrows {
        for fix in fixes { try feed(fix, body) }
    }

    /// Fires what falls due up to `now` (a live caller's clock, or the end of a trace) without a new fix.
    public mutating func finish(at now: Timestamp, _ body: ([Service.Event]) throws -> Void) rethrows {
        service.advance(to: now, events: &events)
        guard !events.isEmpty else { return }
        defer { events.removeAll(keepingCapacity: true) }
        try body(events)
    }
}
