import GeoWakeCore

/// `startRangingBeacons` and `stopRangingBeacons`: the beacons to range, as Core Location's
/// `CLBeaconIdentityConstraint`. The library sends it; the daemon reads it and checks the UUID's form.
public struct RangingRequest: Hashable, Sendable {
    public var constraint: BeaconIdentity

    public init(_ constraint: BeaconIdentity) { self.constraint = constraint }

    public var fields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["uuid": .string(constraint.uuid)]
        if let major = constraint.major { fields["major"] = .integer(major) }
        if let minor = constraint.minor { fields["minor"] = .integer(minor) }
        return fields
    }

    /// `uuid` (a string) and optional `major`, `minor` (integers 0–65535; null is none).
    public init(fields: [String: JSONValue]) throws(RequestError) {
        guard case .string(let uuid) = fields["uuid"] else { throw .badRequest("\"uuid\" must be a string") }
        func part(_ key: String) throws(RequestError) -> UInt16? {
            guard let value = fields.given(key) else { return nil }
            guard case .number(let number) = value, number.rounded() == number, (0...65535).contains(number) else {
                throw .badRequest("\"\(key)\" must be an integer 0–65535")
            }
            return UInt16(number)
        }
        constraint = BeaconIdentity(uuid: uuid, major: try part("major"), minor: try part("minor"))
    }
}
