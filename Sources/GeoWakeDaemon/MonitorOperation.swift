import Beacons
import GeoWakeCore
import GeoWakeProtocol
import RegionIndex

/// A `monitor` request's features, each with its text as the client sent it (the text is what is stored and loaded)
/// and its place among the request's features, counted from 1 (what an error names).
struct MonitorFeatures {
    var features: [JSONValue] = []
    var texts: [String] = []
    var positions: [Int] = []

    mutating func append(_ feature: JSONValue, _ text: String, at position: Int) {
        features.append(feature)
        texts.append(text)
        positions.append(position)
    }
}

/// `monitor`: its beacon regions are monitored here, its geographic ones loaded by `geographicDrafts` and added by
/// `addRegions` once the request's write is stored; a feature the client monitors already, unchanged, is kept as it is.
extension DaemonCore {
    func monitor(_ request: Request) throws -> OperationOutcome {
        let client = try request.client()
        let rules = try RegionRules(request: request.fields)
        let monitor = try ProtocolError.reading { () throws(RequestError) in try MonitorRequest(fields: request.fields) }
        let given = try features(of: monitor, request)
        let new = try withoutUnchanged(given, of: client)
        let unchanged = Int64(given.features.count - new.features.count)
        return try monitorNew(new, prepared: request.preparedDrafts, rules: rules, of: client, at: request.now) { added in MonitorReply(added: Int64(added), unchanged: unchanged).fields }
    }

    /// The features inline, their texts cut from the request line, or read from the file.
    private func features(of monitor: MonitorRequest, _ request: Request) throws(ProtocolError) -> MonitorFeatures {
        let features: [JSONValue], texts: [String]?
        switch monitor.regions {
        case .features(let inline): (features, texts) = (inline, request.featureTexts)
        case .file(let path): (features, texts) = try readFeatures(path, for: request.session.peer)
        }
        // The texts are cut from the bytes the features were parsed from, so there is one for each.
        guard let texts, texts.count == features.count else {
            throw ProtocolError("badGeoJSON", "the features could not be read as sent")
        }
        return MonitorFeatures(features: features, texts: texts, positions: (0..<features.count).map { $0 + 1 })
    }

    /// Without the features identical to a region the client monitors already (a relaunched subscriber monitoring
    /// its regions again): those keep their states and are only counted.
    private func withoutUnchanged(_ given: MonitorFeatures, of client: ClientKey) throws -> MonitorFeatures {
        // A client's first `monitor` (a thousand features at a boot) need not look each of them up.
        guard monitorsAny(client) else { return given }
        let ids = given.features.map(Self.featureID)
        // The stored texts of the geographic ones, read at once: a batch of the store holds a `monitor`'s regions.
        let stored = try store.regionFeatures(ids.compactMap { id in id.flatMap { regions.entry(client, $0)?.row } })
        var kept = MonitorFeatures()
        for (n, feature) in given.features.enumerated() {
            if let id = ids[n], let text = storedFeature(of: client, id, stored), Self.same(text, given.texts[n]) { continue }
            kept.append(feature, given.texts[n], at: given.positions[n])
        }
        return kept
    }

    /// Whether a stored feature text and a new one are the same GeoJSON: the same text, or the same JSON value
    /// (clients need not write keys in one order). Both texts are read whole: the request's feature values lack
    /// their coordinates (`RequestLine`).
    private static func same(_ stored: String, _ text: String) -> Bool {
        guard stored != text else { return true }
        guard let stored = try? JSONValue(parsing: stored), let given = try? JSONValue(parsing: text) else { return false }
        return stored == given
    }

    /// The text a monitored region was given with, nil for an id the client does not monitor; a geographic one's from
    /// `stored`, the texts by row.
    private func storedFeature(of client: ClientKey, _ id: String, _ stored: [Int64: String]) -> String? {
        if let monitored = beacons.subscriptions.region(client, id) { return monitored.feature }
        return regions.entry(client, id).flatMap { stored[$0.row] }
    }

    /// Adds the new regions, all or none, once they are stored; `reply` is given how many. `prepared` has a draft of
    /// each feature the request gave, by position (`PreparedRequest`).
    private func monitorNew(_ new: MonitorFeatures, prepared: [FeatureDraft]?, rules: RegionRules?, of client: ClientKey, at now: Timestamp,
                            reply: @escaping (Int) -> [String: JSONValue]) throws -> OperationOutcome {
        var beaconRegions: [(region: BeaconRegion, feature: String)] = []
        var geographic = MonitorFeatures()
        for (feature, (text, position)) in zip(new.features, zip(new.texts, new.positions)) {
            let region: BeaconRegion?
            do {
                region = try BeaconRegionFile.beaconRegion(feature)
            } catch {
                throw ProtocolError("badGeoJSON", "feature \(position): \(error.description)")
            }
            if let region { beaconRegions.append((region, text)) } else { geographic.append(feature, text, at: position) }
        }
        guard regions.count(of: client) + beacons.subscriptions.count(of: client) + new.features.count <= Self.maximumRegionsPerClient else {
            throw ProtocolError("tooManyRegions", "a client may monitor at most \(Self.maximumRegionsPerClient) regions")
        }
        // The beacon regions' ids here; the geographic ones once, as the loader reads them (a number is an id too).
        var beaconIDs: Set<String> = []
        for id in beaconRegions.map(\.region.id) {
            try checkNewRegionID(id, of: client, among: &beaconIDs)
        }
        let (drafts, ids) = try geographicDrafts(geographic, prepared: prepared.map { all in geographic.positions.map { all[$0 - 1] } },
                                                 besides: beaconIDs, of: client)
        let firstRow = reserveRegionRows(drafts.count)
        let rows = (0..<Int64(drafts.count)).map { firstRow + $0 }
        // The rules go with the geographic part; `features: []` only sets them.
        var changes: [StoreChange] = rules.map { [.setRegionRules($0, client)] } ?? []
        changes.append(.insertRegions(ids: ids, features: geographic.texts, client, firstRow: firstRow))
        for (region, feature) in beaconRegions {
            changes.append(.saveBeaconRegion(BeaconRegionRecord(uid: client.uid, clientID: client.clientID, regionID: region.id, feature: feature)))
        }
        // The regions go into the index while the loop writes their rows, unless new rules come with them: moving the
        // client's regions to another group waits for the commit.
        let alongside = rules == nil && !drafts.isEmpty ? AlongsideWork(
            make: { [self] in addRegions(drafts, rows: rows, of: client) },
            undo: { [self] in for id in ids { _ = regions.remove(client, id, at: now) } }) : nil
        return .write(RequestWrite(changes: changes), alongside: alongside) { [self] _ in
            if alongside == nil { try addRegions(drafts, rows: rows, rules: rules, of: client, at: now) }
            for (region, feature) in beaconRegions { beacons.subscriptions.add(region, feature: feature, owner: client) }
            return reply(drafts.count + beaconRegions.count)
        }
    }

    /// Refuses an id that is malformed, monitored already (as a geographic or a beacon region) or in `ids`, the
    /// request's ids so far; else adds it to them.
    /// `monitored` false skips the lookups for a client that monitors nothing yet.
    func checkNewRegionID(_ id: String, of client: ClientKey, among ids: inout Set<String>, monitored: Bool = true) throws(ProtocolError) {
        try Self.checkRegionID(id)
        if monitored && (regions.entry(client, id) != nil || beacons.subscriptions.region(client, id) != nil) || !ids.insert(id).inserted {
            throw ProtocolError("duplicateRegion", "region \"\(id)\" is already monitored")
        }
    }

    /// Whether the client monitors any region, geographic or beacon.
    func monitorsAny(_ client: ClientKey) -> Bool {
        regions.count(of: client) + beacons.subscriptions.count(of: client) > 0
    }

    /// The id the loader reads (`GeoJSONReader`): the feature's own `id` unless null, else `properties.id`; a string, or
    /// an integral number in decimal, as the loader keeps an integer a client writes. Another spelling of it (`7.0`,
    /// which the loader reads as "7.0") is found as "7" too, so the same feature under it counts as unchanged.
    private static func featureID(_ feature: JSONValue) -> String? {
        switch feature["id"] {
        case nil, .null?: idText(feature["properties"]?["id"])
        case let id?: idText(id)
        }
    }

    private static func idText(_ id: JSONValue?) -> String? {
        switch id {
        case .string(let text)?: text
        case .number(let number)?: Int64(exactly: number).map(String.init)
        default: nil
        }
    }
}
