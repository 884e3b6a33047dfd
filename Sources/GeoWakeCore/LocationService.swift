/// A location service as a pure state machine: `(state, input, now) -> (state, [event])`, with the clock passed
/// in and no I/O, so that `geowake replay` and the daemon run the same code over the same inputs.
///
/// Region monitoring, the standard filter, significant change, visits and the beacon services conform; a driver
/// runs any of them over an input sequence. Inputs whose `now` goes back in time are ignored by every service.
public protocol LocationService {
    /// What the service observes: a `Fix` for the geographic services, a beacon sighting for beacon services.
    associatedtype Input
    /// What it reports, one typed value per event.
    associatedtype Event

    /// Feeds one input observed at `now`, appending the events it causes, in the service's documented order,
    /// after whatever fell due before `now`.
    mutating func update(with input: Input, at now: Timestamp, events: inout [Event])

    /// Fires what falls due at or before `now` without new input (a debounced change, a dwell, a beacon exit).
    mutating func advance(to now: Timestamp, events: inout [Event])

    /// The earliest instant at which `advance(to:)` would report something; a live caller sets its timer to it.
    var nextDeadline: Timestamp? { get }
}

extension LocationService {
    /// Services whose events only ever answer an input have nothing falling due between inputs.
    public mutating func advance(to now: Timestamp, events: inout [Event]) {}

    public var nextDeadline: Timestamp? { nil }

    /// Convenience for callers that do not reuse an event buffer.
    public mutating func update(with input: Input, at now: Timestamp) -> [Event] {
        var events: [Event] = []
        update(with: input, at: now, events: &events)
        return events
    }
}
