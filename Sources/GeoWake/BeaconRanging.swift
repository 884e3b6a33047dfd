import GeoWakeCore

/// What ranging asks for, as Core Location's `CLBeaconIdentityConstraint`: a UUID, optionally a major and a minor.
public typealias BeaconIdentityConstraint = BeaconIdentity

/// One beacon's ranging report for one second, as Core Location's `CLBeacon`.
public struct RangedBeacon: Hashable, Sendable {
    /// How near the beacon is, in Core Location's classes: immediate below 0.5 m, near below 3 m, far beyond;
    /// unknown without a distance.
    public enum Proximity: String, Hashable, Sendable {
        /// Within half a metre.
        case immediate
        /// Within three metres.
        case near
        /// Further away.
        case far
        /// No distance could be estimated.
        case unknown
    }

    /// The end of the second the report covers.
    public var time: Timestamp
    /// The beacon's UUID, major and minor.
    public var identity: BeaconIdentity
    /// Smoothed RSSI, dBm.
    public var rssi: Double
    /// Metres; nil when the beacon sends no usable calibration.
    public var distance: Double?
    /// `distance` in Core Location's classes.
    public var proximity: Proximity
}

extension LocationManager {
    /// Monitors a beacon region: entered at the first matching sighting, exited after the daemon's beacon exit
    /// timeout without one. Its `enter` and `exit` arrive in `events` (with `RegionRef.beacon`), and wake or launch
    /// this client with launch reason `.beacon`, like any region event.
    public func monitor(beacon identity: BeaconIdentity, id: String) async throws {
        try await monitor(Region(id: id, shape: .beacon(identity)))
    }

    /// Starts ranging the beacons that satisfy `constraint`: once a second, one report per beacon heard, in
    /// `rangedBeacons`. Ranging is a live stream, as in Core Location: reports reach this process only while it is
    /// connected, are never stored or resent, and never launch or wake it.
    public func startRangingBeacons(satisfying constraint: BeaconIdentityConstraint) async throws {
        _ = try await request("startRangingBeacons", RangingRequest(constraint).fields)
    }

    /// Stops ranging the beacons `startRangingBeacons(satisfying:)` asked for with the same constraint.
    public func stopRangingBeacons(satisfying constraint: BeaconIdentityConstraint) async throws {
        _ = try await request("stopRangingBeacons", RangingRequest(constraint).fields)
    }

    /// Ranging reports of every constraint this client ranges, as they arrive; one consumer. When it falls more
    /// than 1,024 reports behind, the oldest are dropped.
    public var rangedBeacons: AsyncStream<RangedBeacon> { ranging.stream }
}

extension RangedBeacon {
    /// Reads `{"type":"ranging","event":{"event":"range",…}}`; nil for anything else.
    init?(message: JSONValue) {
        guard message["type"]?.string == "ranging", let event = message["event"],
              let time = event["time"]?.string.flatMap(Timestamp.init(iso8601:)),
              let identity = BeaconIdentity(json: event), identity.major != nil, identity.minor != nil,
              let rssi = event["rssi"]?.double else { return nil }
        self.init(time: time, identity: identity, rssi: rssi, distance: event["distance"]?.double,
                  proximity: event["proximity"]?.string.flatMap(Proximity.init(rawValue:)) ?? .unknown)
    }
}

extension BeaconIdentity {
    /// `{"uuid":…,"major":…,"minor":…}` as the daemon sends it; the UUID in Core's canonical upper case.
    init?(json: JSONValue) {
        guard let uuid = json["uuid"]?.string else { return nil }
        self.init(uuid: uuid.uppercased(), major: json["major"]?.int.flatMap(UInt16.init(exactly:)),
                  minor: json["minor"]?.int.flatMap(UInt16.init(exactly:)))
    }
}
