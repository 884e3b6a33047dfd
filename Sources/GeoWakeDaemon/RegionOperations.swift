import FileBytes
import Foundation
import GeoWakeCore
import JSONLines
import CPeerFiles
import GeoWakeProtocol
import RegionIndex
import Regions

/// monitor, stopMonitoring, regionState of geographic regions (`BeaconOperations` splits off the beacon ones).
extension DaemonCore {
    static let maximumRegionsPerClient = 10_000

    /// A `stopMonitoring` request's ids.
    /// Each id once, in the order first given. The reply lists them again, so a request that leaves it no room under
    /// the line limit (ids up to a few dozen bytes short of 1 MiB: the reply's own members are longer) is refused.
    static func regionIDs(_ request: Request) throws(ProtocolError) -> [String] {
        var seen: Set<String> = []
        let ids = try request.typed(StopMonitoringRequest.init(fields:)).regions.filter { seen.insert($0).inserted }
        // The newline is not counted in the limit.
        guard ReplyMessage.line(id: request.id.text, .success(StopMonitoringReply(removed: ids).fields)).count - 1 <= Connection.maximumLine else {
            throw ProtocolError.badRequest("the reply would list more than \(Connection.maximumLine) bytes of ids: send fewer in one request")
        }
        return ids
    }

    /// The geographic part of `stopMonitoring`'s write: each region's deletion and the `exit` its removal gives. The
    /// regions stay in the monitor until the write is stored, so that a failed write leaves them monitored.
    func stopMonitoringRegions(_ ids: [String], of client: ClientKey, at now: Timestamp) -> RequestWrite {
        var write = RequestWrite(changes: [])
        for id in ids {
            guard let (entry, exit) = regions.removal(client, id, at: now) else { continue }
            write.changes.append(.deleteRegion(row: entry.row))
            write.events += EventLines.region([SharedRegions.Change(entry: entry, event: exit)])
        }
        return write
    }

    /// A beacon region's state, else a geographic one's.
    func regionState(_ request: Request) throws -> [String: JSONValue] {
        let client = try request.client()
        let id = try request.typed(RegionStateRequest.init(fields:)).region
        if let monitored = beacons.subscriptions.region(client, id) { return describe(monitored).fields }
        guard let entry = regions.entry(client, id) else {
            throw ProtocolError("unknownRegion", "no region \"\(id)\" for this client")
        }
        return describe(entry).fields
    }

    func describe(_ entry: SharedRegions.Entry) -> RegionStateReply {
        let since = entry.state == .unknown ? nil : entry.since.map(Self.iso8601)
        return RegionStateReply(region: entry.regionID, state: RegionStateReply.State(rawValue: entry.state.rawValue)!, since: since)
    }

    static func iso8601(_ time: Timestamp) -> String {
        var writer = JSONLineWriter(reservingCapacity: 64)
        writer.beginObject()
        writer.field("t", time)
        return String(decoding: writer.bytes.dropFirst(6).dropLast(), as: UTF8.self)
    }

    /// A `monitor`'s geographic regions, loaded and validated as a file's are, each with its id: the caller checked
    /// the region limit and the ids of the request's beacon regions, `besides`, which no geographic one may take.
    /// `prepared`, a draft of each of them loaded aside (`PreparedRequest`), stands for loading them here.
    func geographicDrafts(_ new: MonitorFeatures, prepared: [FeatureDraft]?, besides beaconIDs: Set<String>,
                          of client: ClientKey) throws(ProtocolError) -> (drafts: [FeatureDraft], ids: [String]) {
        let texts = new.texts
        let drafts: [FeatureDraft]
        do {
            if let prepared { drafts = prepared } else { drafts = try RequestDrafts.load(texts, positions: new.positions) }
        } catch {
            let reason = error.reason == RegionLoadError.missingID ? RegionLoadError.missingIDInRequest : error.reason
            throw ProtocolError("badGeoJSON", "feature \(error.feature.map { "\($0)" } ?? "?"): \(reason)")
        }
        guard drafts.count == texts.count else { throw ProtocolError("badGeoJSON", "every feature must be a region") }
        let ids = drafts.map { String(decoding: $0.id, as: UTF8.self) }
        var seen = beaconIDs
        seen.reserveCapacity(beaconIDs.count + ids.count)
        let monitored = monitorsAny(client)
        for (id, position) in zip(ids, new.positions) {
            do {
                try checkNewRegionID(id, of: client, among: &seen, monitored: monitored)
            } catch where error.code == .badGeoJSON {
                throw ProtocolError(.badGeoJSON, "feature \(position): \(error.message)")
            }
        }
        return (drafts, ids)
    }

    /// Once stored: the client's rules when given, and its new regions in the group of its rules, each with its row.
    func addRegions(_ drafts: [FeatureDraft], rows: [Int64], rules: RegionRules?, of client: ClientKey, at now: Timestamp) throws(ProtocolError) {
        if let rules { try choose(rules, for: client, at: now) }
        addRegions(drafts, rows: rows, of: client)
    }

    /// New regions in the group of the client's rules, each with its row.
    func addRegions(_ drafts: [FeatureDraft], rows: [Int64], of client: ClientKey) {
        do {
            try regions.add(validated: drafts, rows: rows, owner: client)
        } catch {
            logger.error("validated regions did not enter the index", metadata: ["client": "\(client.clientID)", "error": "\(error)"])
        }
    }

    /// Moves the client's regions to the group of its new rules; their states stay as stored.
    private func choose(_ rules: RegionRules, for client: ClientKey, at now: Timestamp) throws(ProtocolError) {
        do {
            try regions.choose(rules, for: client, at: lastFix?.time ?? now)
        } catch {
            logger.error("regions did not move to their new rules", metadata: ["client": "\(client.clientID)", "error": "\(error)"])
            throw ProtocolError("internal", "the regions could not take the new rules: \(error)")
        }
    }

    /// Reads a GeoJSON file with the peer's permissions: as itself when the peer is the daemon's own uid, else (a root
    /// daemon) opened with the thread's filesystem uid and gid switched to the peer's.
    /// The file's features, parsed and each as its text.
    func readFeatures(_ path: String, for peer: Peer) throws(ProtocolError) -> ([JSONValue], [String]?) {
        let fd: Int32
        if peer.uid == getuid() {
            fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        } else if getuid() == 0 {
            fd = geowake_open_as(path, peer.uid, peer.gid)
        } else {
            throw ProtocolError("fileUnreadable", "\(path): a daemon not running as root reads files only for its own uid")
        }
        guard fd >= 0 else { throw ProtocolError("fileUnreadable", "\(path): \(String(cString: strerror(errno)))") }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        guard var data = try? handle.readToEnd() else { throw ProtocolError("fileUnreadable", "\(path): cannot be read") }
        // What `geowake regions check` accepts: gzip-compressed, and a lone Feature as well as a FeatureCollection.
        if data.withUnsafeBytes(Gunzip.isGzip) {
            var inflated = Data()
            do {
                let gunzip = Gunzip()
                try data.withUnsafeBytes { compressed in try gunzip.inflate(compressed) { inflated.append(contentsOf: $0) } }
                try gunzip.finish()
            } catch {
                throw ProtocolError("badGeoJSON", "\(path): \(error)")
            }
            data = inflated
        }
        guard let object = try? data.withUnsafeBytes({ bytes throws(JSONValue.SyntaxError) in try JSONValue(parsing: bytes) }),
              object.object != nil else {
            throw ProtocolError("badGeoJSON", "\(path): not a GeoJSON FeatureCollection or Feature")
        }
        let texts = data.withUnsafeBytes(FeatureTexts.ofDocument)
        if object["type"] == "Feature" { return ([object], texts) }
        guard let features = object["features"]?.array else {
            throw ProtocolError("badGeoJSON", "\(path): not a GeoJSON FeatureCollection or Feature")
        }
        return (features, texts)
    }
}
