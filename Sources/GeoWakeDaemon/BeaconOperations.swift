import Beacons
import GeoWakeCore
import JSONLines
import GeoWakeProtocol

/// Beacon regions in stopMonitoring, regionState, list, subscriptions, clients, status and unregister;
/// startRangingBeacons and stopRangingBeacons. `stopMonitoring` (as `monitor`, `MonitorOperation.swift`) splits its
/// beacon regions from its geographic ones and hands the latter to the geographic op unchanged.
extension DaemonCore {
    func startRangingBeacons(_ request: Request) throws -> OperationOutcome {
        let client = try request.client()
        let constraint = try Self.constraint(request)
        let record = BeaconRangingRecord(uid: client.uid, clientID: client.clientID, constraintKey: constraint.key,
                                         uuid: constraint.uuid.description, major: constraint.major.map { Int64($0) },
                                         minor: constraint.minor.map { Int64($0) })
        return .write(RequestWrite(changes: [.startRanging(record)])) { [self] _ in
            beacons.subscriptions.startRanging(constraint, for: client)
            return [:]
        }
    }

    func stopRangingBeacons(_ request: Request) throws -> OperationOutcome {
        let client = try request.client()
        let constraint = try Self.constraint(request)
        return .write(RequestWrite(changes: [.stopRanging(constraintKey: constraint.key, client)])) { [self] _ in
            beacons.subscriptions.stopRanging(constraint, for: client)
            return [:]
        }
    }

    /// A constraint from `uuid` and optional `major`, `minor`.
    static func constraint(_ request: Request) throws(ProtocolError) -> BeaconSubscriptions.Constraint {
        let constraint = try ProtocolError.reading { () throws(RequestError) in try RangingRequest(fields: request.fields).constraint }
        guard let uuid = BeaconUUID(constraint.uuid) else {
            throw .badRequest("\"uuid\" must be 8-4-4-4-12 hexadecimal digits, not \"\(constraint.uuid)\"")
        }
        return BeaconSubscriptions.Constraint(uuid: uuid, major: constraint.major, minor: constraint.minor)
    }

    /// `stopMonitoring`: beacon regions here, geographic ones through `stopMonitoringRegions`, in one write; each
    /// removed region a client was inside gives its `exit` with reason `regionRemoved`.
    func stopMonitoring(_ request: Request) throws -> OperationOutcome {
        let client = try request.client()
        let ids = try Self.regionIDs(request)
        for id in ids where beacons.subscriptions.region(client, id) == nil && regions.entry(client, id) == nil {
            throw ProtocolError("unknownRegion", "no region \"\(id)\" for this client")
        }
        let beaconIDs = ids.filter { beacons.subscriptions.region(client, $0) != nil }
        let geographic = ids.filter { beacons.subscriptions.region(client, $0) == nil }
        let regionTime = lastFix?.time ?? request.now
        var write = stopMonitoringRegions(geographic, of: client, at: regionTime)
        let now = beacons.lastSighting?.time ?? request.now
        for id in beaconIDs {
            write.changes.append(.deleteBeaconRegion(id, client))
            guard let last = beacons.subscriptions.region(client, id)?.lastSighting else { continue }
            var writer = JSONLineWriter(reservingCapacity: 192)
            writer.beaconRegionEventLine(BeaconRegionEvent(kind: .exit, regionID: id, time: now, beacon: last.beacon), reason: "regionRemoved")
            write.events.append(ClientEvent(client: client, launchReason: .beacon, line: ClientServices.object(&writer)))
        }
        // Removed from memory once stored: a failed write leaves every region monitored, as the store still has them.
        return .write(write) { [self, events = write.events] _ in
            for id in geographic { _ = regions.remove(client, id, at: regionTime) }
            for id in beaconIDs { _ = beacons.subscriptions.remove(client, id) }
            notify(events)
            return StopMonitoringReply(removed: ids).fields
        }
    }

    func describe(_ monitored: BeaconSubscriptions.Monitored) -> RegionStateReply {
        let region = monitored.region
        return RegionStateReply(region: region.id, state: monitored.lastSighting == nil ? .outside : .inside, since: monitored.since.map(Self.iso8601),
                                beacon: BeaconIdentity(uuid: region.uuid.description, major: region.major, minor: region.minor),
                                beaconFormat: region.format?.rawValue)
    }

    /// `list` / `subscriptions` with beacon regions among the regions (by id, byte order) and one `ranging`
    /// subscription per constraint.
    func addingBeacons(to listed: Subscriptions, of client: ClientKey, _ request: Request) throws(ProtocolError) -> [String: JSONValue] {
        var subscriptions = listed.subscriptions
        if beacons.subscriptions.count(of: client) > 0, !subscriptions.contains(where: { $0.kind == "regions" }) {
            subscriptions.append(RegionListReply.Subscription(kind: "regions"))
        }
        for constraint in (beacons.subscriptions.ranging[client] ?? [:]).keys.sorted() {
            var options: [String: JSONValue] = ["uuid": .string(constraint.uuid.description)]
            if let major = constraint.major { options["major"] = .integer(major) }
            if let minor = constraint.minor { options["minor"] = .integer(minor) }
            subscriptions.append(RegionListReply.Subscription(kind: "ranging", options: options))
        }
        let beaconRegions = (beacons.subscriptions.regions[client] ?? [:]).values.map(describe)
        let sorted = (listed.regions + beaconRegions).sorted { $0.region.utf8.lexicographicallyPrecedes($1.region.utf8) }
        let (page, more) = try Self.page(sorted, request)
        return RegionListReply(subscriptions: subscriptions, regions: Array(page), more: more).fields
    }

    /// One page of a region list (`RegionPageRequest`): at most 1,000 regions, so that a reply stays far below the
    /// line limit whatever the ids.
    private static func page(_ sorted: [RegionStateReply], _ request: Request) throws(ProtocolError) -> (ArraySlice<RegionStateReply>, more: Bool) {
        let page = try request.typed(RegionPageRequest.init(fields:))
        let limit = page.limit ?? RegionPageRequest.maximumLimit
        var start = sorted.startIndex
        if let after = page.after.map({ Array($0.utf8) }) {
            start = sorted.firstIndex { after.lexicographicallyPrecedes($0.region.utf8) } ?? sorted.endIndex
        }
        let end = min(sorted.endIndex, start + limit)
        return (sorted[start..<end], end < sorted.endIndex)
    }

    /// Region ids are 1–255 bytes without control characters: with at most 10,000 regions a client's ids and a
    /// page of `list` stay far below the 1 MiB line limit.
    static func checkRegionID(_ id: String) throws(ProtocolError) {
        guard (1...255).contains(id.utf8.count), !id.utf8.contains(where: { $0 < 0x20 }) else {
            throw ProtocolError("badGeoJSON", "region id \(id.utf8.count > 40 ? "\"\(id.prefix(40))…\"" : "\"\(id)\"") must be 1–255 bytes without control characters (\(id.utf8.count) bytes)")
        }
    }

    func beaconSourceStatus(_ description: String) -> StatusReply.BeaconSource {
        let message = beacons.state != "running" && beacons.state != "idle" ? beacons.message : nil
        let sighting = beacons.lastSighting.map { sighting in
            StatusReply.Sighting(time: Self.iso8601(sighting.time), uuid: sighting.beacon.uuid.description, major: Int64(sighting.beacon.major),
                                 minor: Int64(sighting.beacon.minor), rssi: Int64(sighting.rssi))
        }
        return StatusReply.BeaconSource(description: description, state: beacons.state, message: message, lastSighting: sighting)
    }
}
