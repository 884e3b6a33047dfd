import GeoWakeCore
import Testing
@testable import Beacons

@Suite struct BeaconRangerTests {
    typealias F = BeaconFrames

    static func sighting(_ seconds: Double, rssi: Int, power: Int8 = -59, major: UInt16 = 1) -> BeaconSighting {
        BeaconSighting(time: BeaconRegionMonitorTests.at(seconds), address: 1, rssi: rssi,
                       beacon: F.beacon(.iBeacon, major: major, minor: 2, power: power))
    }

    static func ranges(_ sightings: [BeaconSighting]) -> [BeaconRange] {
        var ranger = BeaconRanger()
        var events: [BeaconRange] = []
        for s in sightings { ranger.update(with: s, at: s.time, events: &events) }
        if let due = ranger.nextDeadline { ranger.advance(to: due, events: &events) }
        return events
    }

    @Test("RSSI equal to measured power is one metre: near; far below, immediate above",
          arguments: [(-59, BeaconProximity.near, 1.0), (-79, .far, 10.0), (-45, .immediate, 0.2)])
    func proximityClasses(rssi: Int, proximity: BeaconProximity, metres: Double) throws {
        let range = try #require(Self.ranges([Self.sighting(0.5, rssi: rssi)]).first)
        #expect(range.proximity == proximity)
        #expect(abs(try #require(range.distance) - metres) < 0.01)
    }

    @Test("Measured power of 0 or more gives no distance and proximity unknown", arguments: [0, 12])
    func measuredPowerNotCalibrated(power: Int) throws {
        let range = try #require(Self.ranges([Self.sighting(0.5, rssi: -60, power: Int8(power))]).first)
        #expect(range.distance == nil)
        #expect(range.proximity == .unknown)
    }

    @Test("One report per beacon per second, at the whole second, in UUID-major-minor order")
    func oncePerSecond() {
        let sightings = stride(from: 0.1, to: 3.0, by: 0.2).flatMap {
            [Self.sighting($0, rssi: -60, major: 7), Self.sighting($0, rssi: -60, major: 2)]
        }
        let ranges = Self.ranges(sightings)
        #expect(ranges.map { $0.time - BeaconRegionMonitorTests.at(0) } == [1, 1, 2, 2, 3, 3])
        #expect(ranges.map(\.key.major) == [2, 7, 2, 7, 2, 7])
    }

    @Test("One reflected spike moves the smoothed RSSI by a fifth, not all the way")
    func smoothing() throws {
        let steady = (0..<10).map { Self.sighting(Double($0) * 0.05, rssi: -70) }
        let range = try #require(Self.ranges(steady + [Self.sighting(0.6, rssi: -40)]).last)
        #expect(abs(range.rssi - -64) < 0.001)
    }

    @Test("A beacon unheard for a second gets no report that second")
    func silentSecondNoReport() {
        let ranges = Self.ranges([Self.sighting(0.5, rssi: -60), Self.sighting(3.5, rssi: -60)])
        #expect(ranges.map { $0.time - BeaconRegionMonitorTests.at(0) } == [1, 4])
    }
}
