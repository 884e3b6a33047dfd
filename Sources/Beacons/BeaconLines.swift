import GeoWakeCore
import JSONLines

/// The contract's JSON lines for sightings, beacon-region events and ranging reports.
extension JSONLineWriter {
    /// `geowake beacons`: one line per beacon decoded from an advertisement.
    public mutating func beaconSightingLine(_ sighting: BeaconSighting) {
        beginObject()
        field("time", sighting.time)
        field("address", BeaconSighting.addressText(sighting.address))
        field("rssi", sighting.rssi)
        field("format", sighting.beacon.format.rawValue)
        beaconIdentity(sighting.beacon.key)
        field("measuredPower", Int(sighting.beacon.measuredPower))
        if sighting.beacon.format == .altBeacon { field("company", Int(sighting.beacon.company)) }
        endLine()
    }

    /// `reason` says why an exit happened other than by the beacon going unseen (`regionRemoved`).
    public mutating func beaconRegionEventLine(_ event: BeaconRegionEvent, reason: String? = nil) {
        beginObject()
        field("event", event.kind.name)
        field("region", event.regionID)
        field("time", event.time)
        beginObject("beacon")
        beaconIdentity(event.beacon.key)
        endObject()
        if let reason { field("reason", reason) }
        endLine()
    }

    public mutating func beaconRangeLine(_ range: BeaconRange) {
        beginObject()
        field("event", "range")
        field("time", range.time)
        beaconIdentity(range.key)
        field("rssi", range.rssi, decimals: 1)
        // A non-finite number prints as null, the contract's "unknown distance".
        field("distance", range.distance ?? .nan, decimals: 2)
        field("proximity", range.proximity.rawValue)
        endLine()
    }

    private mutating func beaconIdentity(_ key: BeaconKey) {
        field("uuid", key.uuid.description)
        field("major", Int(key.major))
        field("minor", Int(key.minor))
    }
}

extension BeaconSighting {
    /// `AA:BB:CC:DD:EE:FF`, upper case as BlueZ prints addresses.
    public static func addressText(_ address: UInt64) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        for i in stride(from: 5, through: 0, by: -1) {
            let byte = Int(address >> UInt64(8 * i) & 0xFF)
            out.append(hex[byte >> 4])
            out.append(hex[byte & 0xF])
            if i > 0 { out.append(UInt8(ascii: ":")) }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
