import GeoWakeCore
import Testing
@testable import Beacons

@Suite struct BeaconRegionMonitorTests {
    typealias F = BeaconFrames

    static func at(_ seconds: Double) -> Timestamp { Timestamp(secondsSince1970: 1_700_000_000 + seconds) }

    static func sighting(_ seconds: Double, _ beacon: Beacon = F.beacon(.iBeacon, major: 1, minor: 2)) -> BeaconSighting {
        BeaconSighting(time: at(seconds), address: 0xC3_11_22_33_44_01, rssi: -70, beacon: beacon)
    }

    /// Runs sightings through a monitor and returns (kind, region, seconds) for every event, flushed at the end.
    static func run(_ regions: [BeaconRegion], _ sightings: [BeaconSighting], timeout: Double = 30,
                    flush: Bool = true) -> [String] {
        var monitor = BeaconRegionMonitor(regions: regions, exitTimeout: timeout)
        var events: [BeaconRegionEvent] = []
        for s in sightings { monitor.update(with: s, at: s.time, events: &events) }
        if flush { monitor.flush(events: &events) }
        return events.map { "\($0.kind.name) \($0.regionID) \($0.time - at(0))" }
    }

    let region = BeaconRegion(id: "shop", uuid: F.uuid)

    @Test("The first matching sighting enters; exit comes at last seen + timeout, not at the next sighting")
    func enterAndExit() {
        var monitor = BeaconRegionMonitor(regions: [region], exitTimeout: 30)
        #expect(monitor.update(with: Self.sighting(0), at: Self.at(0)).map(\.kind) == [.enter])
        #expect(monitor.update(with: Self.sighting(10), at: Self.at(10)).isEmpty)
        #expect(monitor.nextDeadline == Self.at(40))
        var events: [BeaconRegionEvent] = []
        monitor.advance(to: Self.at(39.999), events: &events)
        #expect(events.isEmpty)
        monitor.advance(to: Self.at(100), events: &events)
        #expect(events.map(\.kind) == [.exit])
        #expect(events.first?.time == Self.at(40))
        #expect(monitor.nextDeadline == nil)
    }

    @Test("A sighting exactly at the timeout comes after the exit timer: exit, then enter again, at one instant")
    func exactTimeoutTie() {
        #expect(Self.run([region], [Self.sighting(0), Self.sighting(30)], flush: false) == ["enter shop 0.0", "exit shop 30.0", "enter shop 30.0"])
        #expect(Self.run([region], [Self.sighting(0), Self.sighting(29.999)], flush: false) == ["enter shop 0.0"])
    }

    @Test("Exits due after the last sighting are emitted only when flushed")
    func flushOnly() {
        #expect(Self.run([region], [Self.sighting(0)], flush: false) == ["enter shop 0.0"])
        #expect(Self.run([region], [Self.sighting(0)], flush: true) == ["enter shop 0.0", "exit shop 30.0"])
    }

    @Test("A beacon flickering at the edge, heard every 20 s for 10 minutes, enters once and exits once")
    func flickerNoStorm() {
        let sightings = stride(from: 0.0, through: 600, by: 20).map { Self.sighting($0) }
        #expect(Self.run([region], sightings) == ["enter shop 0.0", "exit shop 630.0"])
    }

    @Test("Major and minor narrow the match, and 0 is a value, not a wildcard")
    func narrowingWithZero() {
        let regions = [BeaconRegion(id: "major0", uuid: F.uuid, major: 0),
                       BeaconRegion(id: "major1-minor0", uuid: F.uuid, major: 1, minor: 0),
                       BeaconRegion(id: "major1", uuid: F.uuid, major: 1)]
        let events = Self.run(regions, [Self.sighting(0, F.beacon(.iBeacon, major: 1, minor: 2))], flush: false)
        #expect(events == ["enter major1 0.0"])
        let zero = Self.run(regions, [Self.sighting(0, F.beacon(.iBeacon, major: 1, minor: 0))], flush: false)
        #expect(zero == ["enter major1 0.0", "enter major1-minor0 0.0"])
    }

    @Test("A region written in upper case matches a beacon whose UUID is the same value")
    func uuidCaseMatches() throws {
        let upper = BeaconRegion(id: "upper", uuid: try #require(BeaconUUID(F.uuidText.uppercased())))
        let lower = BeaconRegion(id: "lower", uuid: try #require(BeaconUUID(F.uuidText.lowercased())))
        #expect(Self.run([upper, lower], [Self.sighting(0)], flush: false) == ["enter lower 0.0", "enter upper 0.0"])
    }

    @Test("format narrows to iBeacon or AltBeacon; without it both match, whatever the AltBeacon's company")
    func formatNarrows() {
        let regions = [BeaconRegion(id: "any", uuid: F.uuid), BeaconRegion(id: "alt", uuid: F.uuid, format: .altBeacon),
                       BeaconRegion(id: "ib", uuid: F.uuid, format: .iBeacon)]
        var alt = F.beacon(.altBeacon, major: 1, minor: 2)
        alt.company = 0xFFFF
        #expect(Self.run(regions, [Self.sighting(0, alt)], flush: false) == ["enter alt 0.0", "enter any 0.0"])
        #expect(Self.run(regions, [Self.sighting(0)], flush: false) == ["enter any 0.0", "enter ib 0.0"])
    }

    @Test("At one instant exits come before enters, each in byte order of the region id")
    func sameTimeOrder() {
        let other = F.beacon(.iBeacon, major: 9, minor: 9)
        let regions = [BeaconRegion(id: "b", uuid: F.uuid, major: 1), BeaconRegion(id: "a", uuid: F.uuid, major: 1),
                       BeaconRegion(id: "Z", uuid: F.uuid, major: 9), BeaconRegion(id: "c", uuid: F.uuid, major: 9)]
        let events = Self.run(regions, [Self.sighting(0), Self.sighting(30, other)], flush: false)
        #expect(events == ["enter a 0.0", "enter b 0.0", "exit a 30.0", "exit b 30.0", "enter Z 30.0", "enter c 30.0"])
    }

    @Test("notifyOnEntry and notifyOnExit false silence their events but not the state")
    func notifyFlags() {
        let quiet = BeaconRegion(id: "q", uuid: F.uuid, notifyOnEntry: false, notifyOnExit: true)
        #expect(Self.run([quiet], [Self.sighting(0), Self.sighting(10)]) == ["exit q 40.0"])
    }

    @Test("A sighting earlier than the one before it is ignored")
    func backwardsIgnored() {
        #expect(Self.run([region], [Self.sighting(100), Self.sighting(0, F.beacon(.iBeacon, major: 1, minor: 2))],
                         flush: false) == ["enter shop 100.0"])
    }
}
