import Beacons
import Foundation
import GeoWakeCore
import JSONLines
import GeoWakeProtocol

/// The loop's side of the beacon source: scanning started and stopped by demand, and what is due handed to the
/// decisions (`BeaconDecisions.swift`): a trace's sightings up to a batch a turn, a live scanner's reports, and the
/// live exit timeouts on the wall clock.
extension Daemon {
    /// Sightings of one turn at most, so requests and fixes are not kept waiting by a trace at speed 0.
    static let beaconBatch = 512

    func pumpBeacons() {
        guard let source = beaconSource else { return }
        updateDemand()   // a fix trace wanted from this turn on starts now, so both traces start on its clock
        updateBeaconDemand(source)
        if source.isTrace {
            var sightings: [BeaconSighting] = []
            while sightings.count < Self.beaconBatch,
                  let delay = source.delay(now: clock.monotonic(), fixOrigin: self.source?.replay?.origin), delay <= 0 {
                sightings.append(source.next())
            }
            if !sightings.isEmpty { feed(.traceSightings(sightings, position: source.position, ended: source.traceEnded)) }
        } else {
            for item in source.take() { feed(.scanner(item)) }
            if let due = core.beacons.subscriptions.nextDeadline, due <= clock.wall() { feed(.beaconDeadline) }
        }
    }

    /// Seconds until the beacon side needs the loop: a trace's next sighting, or a live source's next exit or report.
    func beaconDelay() -> Double? {
        guard let source = beaconSource, core.beacons.state != "idle" else { return nil }
        if source.isTrace { return source.delay(now: clock.monotonic(), fixOrigin: self.source?.replay?.origin) }
        return core.beacons.subscriptions.nextDeadline.map { max(0, $0.secondsSince1970 - clock.wall().secondsSince1970) }
    }

    /// Scanning runs only while some client monitors or ranges core.beacons.
    private func updateBeaconDemand(_ source: BeaconSource) {
        let needed = !core.beacons.subscriptions.isEmpty
        if needed && core.beacons.state == "idle" {
            source.start(now: clock.monotonic())
            core.beacons.state = source.traceEnded ? "ended" : core.beacons.announced ?? "running"
        } else if !needed && core.beacons.state != "idle" {
            source.stop()
            core.beacons.state = "idle"
        }
    }
}
