import Beacons
import Foundation
import GeoWakeCore
import GeoWakeProtocol

/// Beacon regions with their monitoring state, and ranging constraints, in the store. A region inside keeps its
/// last matching sighting (time and beacon), written with the events of the turn that saw it, so a restarted daemon
/// neither repeats the `enter` nor exits before `lastSeen + --beacon-exit-timeout`.
extension DaemonCore {
    /// A monitored beacon region as its store record.
    static func beaconRegionRecord(_ monitored: BeaconSubscriptions.Monitored) -> BeaconRegionRecord {
        let sighting = monitored.lastSighting
        return BeaconRegionRecord(uid: monitored.owner.uid, clientID: monitored.owner.clientID, regionID: monitored.region.id,
                                  feature: monitored.feature, since: monitored.since?.millisecondsSince1970,
                                  lastSeen: sighting?.time.millisecondsSince1970, beacon: sighting.map { Self.beaconText($0.beacon) })
    }

    /// Puts every stored beacon region and constraint back, inside ones without an event.
    func restoreBeacons() throws {
        let stored = try store.beacons()
        for record in stored.regions {
            guard let object = try? JSONValue(parsing: record.feature), let region = try? BeaconRegionFile.beaconRegion(object) else {
                logger.error("a stored beacon region does not read back", metadata: ["region": "\(record.regionID)"])
                continue
            }
            var last: (Timestamp, Beacon)?
            if let seen = record.lastSeen, let text = record.beacon, let beacon = Self.beacon(text) {
                last = (Timestamp(millisecondsSince1970: seen), beacon)
            }
            beacons.subscriptions.add(region, feature: record.feature, owner: record.owner,
                                      since: record.since.map { Timestamp(millisecondsSince1970: $0) },
                                      lastSighting: last)
        }
        for record in stored.ranging {
            guard let uuid = BeaconUUID(record.uuid) else { continue }
            let constraint = BeaconSubscriptions.Constraint(uuid: uuid, major: record.major.map { UInt16($0) },
                                                             minor: record.minor.map { UInt16($0) })
            beacons.subscriptions.startRanging(constraint, for: record.client)
        }
    }

    /// `format uuid major minor measuredPower company`: everything an exit line or a later match needs.
    static func beaconText(_ beacon: Beacon) -> String {
        "\(beacon.format.rawValue) \(beacon.uuid) \(beacon.major) \(beacon.minor) \(beacon.measuredPower) \(beacon.company)"
    }

    static func beacon(_ text: String) -> Beacon? {
        let parts = text.split(separator: " ").map(String.init)
        guard parts.count == 6, let format = BeaconFormat(rawValue: parts[0]), let uuid = BeaconUUID(parts[1]),
              let major = UInt16(parts[2]), let minor = UInt16(parts[3]), let power = Int8(parts[4]),
              let company = UInt16(parts[5]) else { return nil }
        return Beacon(format: format, uuid: uuid, major: major, minor: minor, measuredPower: power, company: company)
    }
}
