#if canImport(Glibc)
import Glibc
#endif
import GeoWakeCore

/// How near a ranged beacon is, in Core Location's classes.
public enum BeaconProximity: String, Hashable, Sendable {
    case immediate, near, far, unknown
}

/// One beacon's ranging report for one second.
public struct BeaconRange: Hashable, Sendable {
    public var time: Timestamp
    public var key: BeaconKey
    /// Smoothed RSSI in dBm.
    public var rssi: Double
    /// Metres; nil when the beacon's measured power is not a usable calibration.
    public var distance: Double?
    public var proximity: BeaconProximity
}

/// Ranging: once a second, one report per beacon heard during that second, with its smoothed RSSI and the distance
/// that implies.
///
/// Seconds are whole UTC seconds; the report at second T covers sightings in [T − 1 s, T) and fires before a
/// sighting at exactly T is applied, as beacon exits do. RSSI is smoothed per beacon by an exponential moving
/// average, `s ← s + α (rssi − s)` with α = 0.2 (the first sighting sets it), so one reflected burst moves the
/// estimate by a fifth; a beacon unheard for `forgetAfter` seconds starts afresh. Distance follows the
/// log-distance path-loss model `d = 10^((P − s) / (10 n))`, P the measured power (RSSI at 1 m), n = 2 (free
/// space), the model Android Beacon Library and most BlueZ-based scanners use. Proximity: immediate below 0.5 m,
/// near below 3 m, far beyond. Measured power ≥ 0 is no calibration: distance nil, proximity unknown. Sightings
/// whose RSSI is 127 (the controller's "not available") are not ranged.
public struct BeaconRanger: LocationService {
    public typealias Input = BeaconSighting
    public typealias Event = BeaconRange

    public struct Configuration: Hashable, Sendable {
        public var smoothing = 0.2
        public var pathLossExponent = 2.0
        public var immediateBelow = 0.5
        public var nearBelow = 3.0
        public var forgetAfter = 10.0

        public init() {}
    }

    private struct State {
        var smoothed: Double
        var measuredPower: Int8
        var lastSeen: Timestamp
    }

    public let configuration: Configuration
    private var states: [BeaconKey: State] = [:]
    /// The end of the second now collecting sightings; nil when nothing was heard since the last report.
    private var pendingTick: Timestamp?
    private var clock: Timestamp?

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    public var nextDeadline: Timestamp? { pendingTick }

    public mutating func update(with sighting: BeaconSighting, at now: Timestamp, events: inout [BeaconRange]) {
        if let clock, now < clock { return }
        advance(to: now, events: &events)
        guard sighting.rssi != 127 else { return }
        let key = sighting.beacon.key
        let rssi = Double(sighting.rssi)
        if var state = states[key], now - state.lastSeen <= configuration.forgetAfter {
            state.smoothed += configuration.smoothing * (rssi - state.smoothed)
            state.measuredPower = sighting.beacon.measuredPower
            state.lastSeen = now
            states[key] = state
        } else {
            states[key] = State(smoothed: rssi, measuredPower: sighting.beacon.measuredPower, lastSeen: now)
        }
        if pendingTick == nil {
            let second = now.millisecondsSince1970 - ((now.millisecondsSince1970 % 1000) + 1000) % 1000
            pendingTick = Timestamp(millisecondsSince1970: second + 1000)
        }
    }

    public mutating func advance(to now: Timestamp, events: inout [BeaconRange]) {
        if let clock, now < clock { return }
        clock = now
        guard let tick = pendingTick, tick <= now else { return }
        pendingTick = nil
        let windowStart = Timestamp(millisecondsSince1970: tick.millisecondsSince1970 - 1000)
        var heard: [BeaconRange] = []
        for (key, state) in states where state.lastSeen >= windowStart {
            heard.append(range(key, state, at: tick))
        }
        heard.sort { $0.key < $1.key }
        events.append(contentsOf: heard)
        states = states.filter { tick - $0.value.lastSeen <= configuration.forgetAfter }
    }

    private func range(_ key: BeaconKey, _ state: State, at time: Timestamp) -> BeaconRange {
        guard state.measuredPower < 0 else {
            return BeaconRange(time: time, key: key, rssi: state.smoothed, distance: nil, proximity: .unknown)
        }
        let exponent = (Double(state.measuredPower) - state.smoothed) / (10 * configuration.pathLossExponent)
        let distance = pow(10, exponent)
        let proximity: BeaconProximity = distance < configuration.immediateBelow ? .immediate
            : distance < configuration.nearBelow ? .near : .far
        return BeaconRange(time: time, key: key, rssi: state.smoothed, distance: distance, proximity: proximity)
    }
}
