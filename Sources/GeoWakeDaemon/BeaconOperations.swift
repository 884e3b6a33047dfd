import Beacons
import Foundation
import GeoWakeCore
import GRDB
import JSONLines
import GeoWakeProtocol

/// Beacon regions in monitor, stopMonitoring, regionState, list, subscriptions, clients, status and unregister;
/// startRangingBeacons and stopRangingBeacons. `monitor` and `stopMonitoring` split their beacon regions from their
/// geographic ones and hand the latter to the geographic op unchanged, so geographic regions work exactly as before.
extension Daemon {
    func startRangingBeacons(_ request: Request) throws -> [String: Any] {
        let client = try request.client()
        let constraint = try Self.constraint(request)
        try storeWrite { db in
            try db.execute(sql: "INSERT OR REPLACE INTO beaconRanging (uid, clientID, constraintKey, uuid, major, minor) VALUES (?, ?, ?, ?, ?, ?)",
                           arguments: [client.uid, client.clientID, constraint.key, constraint.uuid.description,
                                       constraint.major.map { Int($0) }, constraint.minor.map { Int($0) }])
        }
        beacons.subscriptions.startRanging(constraint, for: client)
        return [:]
    }

    func stopRangingBeacons(_ request: Request) throws -> [String: Any] {
        let client = try request.client()
        let constraint = try Self.constraint(request)
        try storeWrite { db in
            try db.execute(sql: "DELETE FROM beaconRanging WHERE uid = ? AND clientID = ? AND constraintKey = ?",
                           arguments: [client.uid, client.clientID, constraint.key])
        }
        beacons.subscriptions.stopRanging(constraint, for: client)
        return [:]
    }

    /// `unregister`'s beacon part: the client's beacon regions and ranging go with it.
    func forgetBeacons(of client: ClientKey) throws(ProtocolError) {
        try storeWrite { db in try Self.deleteBeacons(db, of: client) }
        beacons.subscriptions.removeAll(of: client)
    }

    /// A constraint from `uuid` and optional `major`, `minor`.
    static func constraint(_ request: Request) throws(ProtocolError) -> BeaconSubscriptions.Constraint {
        let text = try request.string("uuid")
        guard let uuid = BeaconUUID(text) else {
            throw .badRequest("\"uuid\" must be 8-4-4-4-12 hexadecimal digits, not \"\(text)\"")
        }
        func part(_ key: String) throws(ProtocolError) -> UInt16? {
            guard let value = request.fields[key], !(value is NSNull) else { return nil }
            guard let number = jsonNumber(value), number.rounded() == number, (0...65535).contains(number) else {
                throw .badRequest("\"\(key)\" must be an integer 0–65535")
            }
            return UInt16(number)
        }
        return BeaconSubscriptions.Constraint(uuid: uuid, major: try part("major"), minor: try part("minor"))
    }

    /// `monitor`: beacon regions here, geographic ones through `monitorRegions`.
    func monitor(_ request: Request) throws -> [String: Any] {
        let client = try request.client()
        let (request, unchanged) = try withoutUnchangedFeatures(request, of: client)
        var result = try monitorNewFeatures(request, of: client)
        if unchanged > 0 { result["unchanged"] = unchanged }
        return result
    }

    /// The request without the features identical to a region the client monitors already (a
    /// relaunched subscriber monitoring its regions again): those are kept as they are, states and all, and counted.
    private func withoutUnchangedFeatures(_ request: Request, of client: ClientKey) throws -> (Request, Int) {
        guard let (features, texts) = try requestedFeatures(request), let texts else { return (request, 0) }
        var kept: [Any] = [], keptTexts: [String] = []
        for (feature, text) in zip(features, texts) {
            if let id = Self.featureID(feature), let stored = try storedFeature(of: client, id), Self.same(stored, text, feature) { continue }
            kept.append(feature)
            keptTexts.append(text)
        }
        var fields = request.fields
        fields["features"] = kept
        fields["file"] = nil
        var filtered = Request(id: request.id, op: request.op, fields: fields, connection: request.connection)
        filtered.featureTexts = keptTexts
        return (filtered, features.count - kept.count)
    }

    /// Whether a stored feature text and a new feature are the same GeoJSON: the same text, or the same JSON value
    /// (clients need not write keys in one order).
    private static func same(_ stored: String, _ text: String, _ feature: Any) -> Bool {
        if stored == text { return true }
        guard let object = feature as? NSDictionary,
              let storedObject = try? JSONSerialization.jsonObject(with: Data(stored.utf8)) as? NSDictionary else { return false }
        return storedObject.isEqual(object)
    }

    /// The text a monitored region was given with, nil for an id the client does not monitor.
    private func storedFeature(of client: ClientKey, _ id: String) throws -> String? {
        if let monitored = beacons.subscriptions.region(client, id) { return monitored.feature }
        guard regions.entry(client, id) != nil else { return nil }
        return try store.read { db in
            try String.fetchOne(db, sql: "SELECT feature FROM region WHERE uid = ? AND clientID = ? AND regionID = ?",
                                arguments: [client.uid, client.clientID, id])
        }
    }

    /// A monitor request's features, inline or read from its file, each with its text when it could be cut from
    /// the bytes; nil for a malformed request (the geographic op says what is wrong with it).
    private func requestedFeatures(_ request: Request) throws -> ([Any], [String]?)? {
        var features: [Any]
        var texts = request.featureTexts
        switch (request.fields["features"], request.fields["file"]) {
        case (let collection as [String: Any], nil) where collection["features"] is [Any]:
            features = collection["features"] as! [Any]
        case (let array as [Any], nil):
            features = array
        case (nil, let path as String) where path.hasPrefix("/"):
            (features, texts) = try readFeatures(path, for: request.connection)
        default:
            return nil
        }
        return (features, texts?.count == features.count ? texts : nil)
    }

    private func monitorNewFeatures(_ request: Request, of client: ClientKey) throws -> [String: Any] {
        guard let (features, texts) = try requestedFeatures(request) else {
            return try monitorRegions(request)   // its own error for a malformed request
        }
        var beaconRegions: [(region: BeaconRegion, feature: String)] = []
        var geographic: [Any] = []
        var geographicTexts: [String] = []
        for (index, feature) in features.enumerated() {
            let region: BeaconRegion?
            do {
                region = try BeaconRegionFile.beaconRegion(feature)
            } catch {
                throw ProtocolError("badGeoJSON", "feature \(index + 1): \(error.description)")
            }
            guard let region else {
                geographic.append(feature)
                if let texts { geographicTexts.append(texts[index]) }
                continue
            }
            let text = try texts?[index] ?? String(decoding: JSONSerialization.data(withJSONObject: feature, options: [.sortedKeys]), as: UTF8.self)
            beaconRegions.append((region, text))
        }
        guard regions.count(of: client) + beacons.subscriptions.count(of: client) + features.count <= Self.maximumRegionsPerClient else {
            throw ProtocolError("tooManyRegions", "a client may monitor at most \(Self.maximumRegionsPerClient) regions")
        }
        var seen: Set<String> = []
        let geographicIDs = geographic.compactMap { Self.featureID($0) }
        for id in beaconRegions.map(\.region.id) + geographicIDs {
            try Self.checkRegionID(id)
            if regions.entry(client, id) != nil || beacons.subscriptions.region(client, id) != nil || !seen.insert(id).inserted {
                throw ProtocolError("duplicateRegion", "region \"\(id)\" is already monitored")
            }
        }
        if beaconRegions.isEmpty { return try monitorRegions(request) }
        // The geographic part goes on with the request's other fields (region rules); `features: []` only sets rules.
        var geographicFields = request.fields
        geographicFields["features"] = geographic
        geographicFields["file"] = nil   // read already: its beacon features are split off above
        var geographicRequest = Request(id: request.id, op: request.op, fields: geographicFields, connection: request.connection)
        geographicRequest.featureTexts = texts == nil ? nil : geographicTexts
        let added = try monitorRegions(geographicRequest)["added"] as? Int ?? 0
        for entry in beaconRegions {
            beacons.subscriptions.add(entry.region, feature: entry.feature, owner: client)
        }
        do {
            try storeWrite { db in
                for entry in beaconRegions {
                    try Self.storeBeaconRegion(db, beacons.subscriptions.region(client, entry.region.id)!)
                }
            }
        } catch {
            for entry in beaconRegions { _ = beacons.subscriptions.remove(client, entry.region.id) }
            throw error
        }
        return ["added": added + beaconRegions.count]
    }

    /// `stopMonitoring`: beacon regions here, geographic ones through `stopMonitoringRegions`.
    func stopMonitoring(_ request: Request) throws -> [String: Any] {
        let client = try request.client()
        guard let ids = request.fields["regions"] as? [String] else { return try stopMonitoringRegions(request) }
        let beaconIDs = ids.filter { beacons.subscriptions.region(client, $0) != nil }
        guard !beaconIDs.isEmpty else { return try stopMonitoringRegions(request) }
        for id in ids where beacons.subscriptions.region(client, id) == nil && regions.entry(client, id) == nil {
            throw ProtocolError("unknownRegion", "no region \"\(id)\" for this client")
        }
        let geographic = ids.filter { beacons.subscriptions.region(client, $0) == nil }
        if !geographic.isEmpty {
            let geographicRequest = Request(id: request.id, op: request.op, fields: ["regions": geographic], connection: request.connection)
            _ = try stopMonitoringRegions(geographicRequest)
        }
        let now = beacons.lastSighting?.time ?? clock.wall()
        var events: [(ClientKey, LaunchReason?, String)] = []
        for id in beaconIDs {
            guard let removed = beacons.subscriptions.remove(client, id), let last = removed.lastSighting else { continue }
            var writer = JSONLineWriter(reservingCapacity: 192)
            writer.beaconRegionEventLine(BeaconRegionEvent(kind: .exit, regionID: id, time: now, beacon: last.beacon))
            var line = ClientServices.object(&writer)
            line.removeLast()
            events.append((client, .beacon, line + ",\"reason\":\"regionRemoved\"}"))
        }
        try storeWrite { db in
            for id in beaconIDs { try Self.deleteBeaconRegion(db, client, id) }
            try enqueue(db, events, now: now)
        }
        notify(events)
        return ["removed": ids]
    }

    func describe(_ monitored: BeaconSubscriptions.Monitored) -> [String: Any] {
        var result: [String: Any] = ["region": monitored.region.id, "state": monitored.lastSighting == nil ? "outside" : "inside"]
        if let since = monitored.since { result["since"] = Self.iso8601(since) }
        var beacon: [String: Any] = ["uuid": monitored.region.uuid.description]
        if let major = monitored.region.major { beacon["major"] = Int(major) }
        if let minor = monitored.region.minor { beacon["minor"] = Int(minor) }
        if let format = monitored.region.format { beacon["format"] = format.rawValue }
        result["beacon"] = beacon
        return result
    }

    /// `list` / `subscriptions` with beacon regions among the regions (by id, byte order) and one `ranging`
    /// subscription per constraint.
    func addingBeacons(to result: [String: Any], of client: ClientKey, _ request: Request) throws(ProtocolError) -> [String: Any] {
        var result = result
        var subscriptions = result["subscriptions"] as? [[String: Any]] ?? []
        if beacons.subscriptions.count(of: client) > 0, !subscriptions.contains(where: { $0["kind"] as? String == "regions" }) {
            subscriptions.append(["kind": "regions", "options": [String: Any]()])
        }
        for constraint in (beacons.subscriptions.ranging[client] ?? [:]).keys.sorted() {
            var options: [String: Any] = ["uuid": constraint.uuid.description]
            if let major = constraint.major { options["major"] = Int(major) }
            if let minor = constraint.minor { options["minor"] = Int(minor) }
            subscriptions.append(["kind": "ranging", "options": options])
        }
        result["subscriptions"] = subscriptions
        let beaconRegions = (beacons.subscriptions.regions[client] ?? [:]).values.map(describe)
        let sorted = ((result["regions"] as? [[String: Any]] ?? []) + beaconRegions).sorted {
            ($0["region"] as? String ?? "").utf8.lexicographicallyPrecedes(($1["region"] as? String ?? "").utf8)
        }
        let (page, more) = try Self.page(sorted, request)
        result["regions"] = Array(page)
        if more { result["more"] = true }
        return result
    }

    static let regionsPerPage = 1_000

    /// One page of a region list: those after `after` (byte order), at most `limit` (1–1,000, the default), so
    /// that a reply stays far below the line limit whatever the ids.
    private static func page(_ sorted: [[String: Any]], _ request: Request) throws(ProtocolError) -> (ArraySlice<[String: Any]>, more: Bool) {
        var limit = regionsPerPage
        if request.fields["limit"] != nil {
            let given = try request.integer("limit")
            guard (1...Int64(regionsPerPage)).contains(given) else {
                throw .badRequest("\"limit\" must be an integer from 1 to \(regionsPerPage)")
            }
            limit = Int(given)
        }
        var start = sorted.startIndex
        if request.fields["after"] != nil {
            let after = Array(try request.string("after").utf8)
            start = sorted.firstIndex { after.lexicographicallyPrecedes(($0["region"] as? String ?? "").utf8) } ?? sorted.endIndex
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

    /// `clients` entries counting beacon regions among the regions, with `ranging` among the subscriptions.
    func addingBeacons(to clients: Any?, uid: UInt32) -> [[String: Any]] {
        (clients as? [[String: Any]] ?? []).map { entry in
            guard let id = entry["client"] as? String else { return entry }
            let client = ClientKey(uid: uid, clientID: id)
            var entry = entry
            let count = beacons.subscriptions.count(of: client)
            entry["regions"] = (entry["regions"] as? Int ?? 0) + count
            var kinds = Set(entry["subscriptions"] as? [String] ?? [])
            if count > 0 { kinds.insert("regions") }
            if beacons.subscriptions.ranging[client] != nil { kinds.insert("ranging") }
            entry["subscriptions"] = kinds.sorted()
            return entry
        }
    }

    func beaconSourceStatus(_ source: BeaconSource) -> [String: Any] {
        var status: [String: Any] = ["description": source.description, "state": beacons.state]
        if let message = beacons.message, beacons.state != "running", beacons.state != "idle" { status["message"] = message }
        if let sighting = beacons.lastSighting {
            status["lastSighting"] = ["time": Self.iso8601(sighting.time), "uuid": sighting.beacon.uuid.description,
                                      "major": Int(sighting.beacon.major), "minor": Int(sighting.beacon.minor),
                                      "rssi": sighting.rssi] as [String: Any]
        }
        return status
    }

    private static func featureID(_ feature: Any) -> String? {
        guard let object = feature as? [String: Any] else { return nil }
        return object["id"] as? String ?? (object["properties"] as? [String: Any])?["id"] as? String
    }
}
