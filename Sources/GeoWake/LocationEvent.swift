import GeoWakeCore

/// One event from the daemon's outbox, as user code sees it.
public struct LocationEvent: Hashable, Sendable {
    /// What happened, with what the event is about.
    public enum Kind: Hashable, Sendable {
        /// The device entered a monitored region (`monitor`).
        case enter(RegionRef)
        /// The device left a monitored region, or the region was removed while the device was inside it.
        case exit(RegionRef)
        /// The device stayed inside a region for the region's `dwell` seconds.
        case dwell(RegionRef)
        /// A standard location update (`startUpdatingLocation`).
        case location(Fix)
        /// A significant-change update (`startSignificantChanges`).
        case significantChange(Fix)
        /// An arrival at, or a departure from, a place (`startVisits`).
        case visit(Visit)
        /// The location source's health changed (sent to every client with a subscription), or this client's
        /// events were dropped at the pending limit (`eventsDropped`).
        case status(SourceStatus)
    }

    /// The client's sequence number: 1, 2, 3, … with no gaps within one `epoch`.
    public var seq: Int64
    /// The daemon's store epoch when the event was queued: it grows with every daemon start, so a sequence number
    /// issued again after a power cut rolled the store back comes with a greater epoch. (epoch, seq) names the event.
    public var epoch: Int64
    /// What happened.
    public var kind: Kind
    /// The fix that decided the event (for a region, the deciding fix; absent for status).
    public var fix: Fix?
    /// The event object as the daemon sent it: the same keys as a line of `geowake replay`.
    public var raw: JSONValue
}

/// The region an `enter`, `exit` or `dwell` is about.
public struct RegionRef: Hashable, Sendable {
    /// The region's id, as given to `monitor`.
    public var id: String
    /// True when neither fix lay in the region but the segment between them crossed it.
    public var crossed: Bool
    /// Why an exit happened other than by crossing the boundary, e.g. `regionRemoved`.
    public var reason: String?
    /// For a beacon region: the beacon that entered it, or for an exit the last one seen.
    public var beacon: BeaconIdentity?
}

/// Source health as the daemon reports it: `running`, `noFix`, `unavailable`, `poorAccuracy`, `ended`, `eventsDropped`.
public struct SourceStatus: Hashable, Sendable {
    /// `running`, `noFix`, `unavailable`, `poorAccuracy`, `ended` or `eventsDropped` (docs/protocol.md, "Events").
    public var state: String
    /// Why, for people (e.g. the gpsd error); may change between versions.
    public var message: String?
    /// The daemon's clock when the state changed (for a trace, the trace's time).
    public var time: Timestamp?
}

extension LocationEvent {
    /// Reads `{"type":"event","epoch":E,"seq":N,"event":{…}}`; nil for anything else.
    init?(message: JSONValue) {
        guard let message = EventMessage(message: message), case let event = message.event,
              let name = event["event"]?.string else { return nil }
        seq = message.number.seq
        epoch = message.number.epoch
        raw = event
        fix = Self.fix(event)
        let region = event["region"]?.string.map {
            RegionRef(id: $0, crossed: event["crossed"]?.bool ?? false, reason: event["reason"]?.string,
                      beacon: event["beacon"].flatMap(BeaconIdentity.init(json:)))
        }
        switch name {
        case "enter": guard let region else { return nil }; kind = .enter(region)
        case "exit": guard let region else { return nil }; kind = .exit(region)
        case "dwell": guard let region else { return nil }; kind = .dwell(region)
        case "location": guard let fix else { return nil }; kind = .location(fix)
        case "significant": guard let fix else { return nil }; kind = .significantChange(fix)
        case "visit":
            guard let fix, let arrival = event["arrival"]?.string.flatMap(Timestamp.init(iso8601:)) else { return nil }
            kind = .visit(Visit(arrival: arrival, departure: event["departure"]?.string.flatMap(Timestamp.init(iso8601:)),
                                center: fix.coordinate, radius: event["radius"]?.double ?? 0))
        case "status":
            fix = nil
            kind = .status(SourceStatus(state: event["state"]?.string ?? "unknown", message: event["message"]?.string,
                                        time: event["time"]?.string.flatMap(Timestamp.init(iso8601:))))
        default: return nil
        }
    }

    private static func fix(_ event: JSONValue) -> Fix? {
        guard let lat = event["lat"]?.double, let lon = event["lon"]?.double else { return nil }
        return Fix(time: event["time"]?.string.flatMap(Timestamp.init(iso8601:)),
                   coordinate: Coordinate(latitude: lat, longitude: lon),
                   altitudeMSL: event["altMSL"]?.double, speed: event["speed"]?.double, course: event["course"]?.double,
                   horizontalAccuracy: event["hAcc"]?.double, mode: event["mode"]?.int == 3 ? .threeD : .twoD,
                   satellites: event["sats"]?.int)
    }
}

extension Timestamp {
    /// `2014-12-31T03:07:19.000Z`, the protocol's one time format (milliseconds optional).
    init?(iso8601 text: String) {
        let b = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var value = 0
            for c in b[from..<from + count] {
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            return value
        }
        guard b.count >= 20, b.last == UInt8(ascii: "Z"), let year = number(0, 4), let month = number(5, 2),
              let day = number(8, 2), let hour = number(11, 2), let minute = number(14, 2),
              let second = number(17, 2) else { return nil }
        let millisecond = b.count >= 24 && b[19] == UInt8(ascii: ".") ? number(20, 3) ?? 0 : 0
        self.init(year: year, month: month, day: day, hour: hour, minute: minute, second: second, millisecond: millisecond)
    }
}
