import GeoWakeProtocol
import GRDB
import Geofencing

/// The region rules one client chose in a `monitor` request; a field it left out follows `geowaked`'s flag, so
/// a client that never chose any follows the daemon's defaults even when those change between runs.
struct ClientRegionRules: Equatable {
    static let fields = ["hysteresis", "debounce", "accuracyGating", "segmentCrossing"]

    var hysteresis: Double?
    var debounce: Double?
    var accuracyGating: Bool?
    var segmentCrossing: Bool?

    /// The rules a `monitor` request gives, nil when it names none of the fields; a field given as null follows the
    /// daemon's flag. A bad value names its field.
    init?(request fields: [String: JSONValue]) throws(ProtocolError) {
        guard Self.fields.contains(where: { fields[$0] != nil }) else { return nil }
        func given(_ field: String) -> JSONValue? { fields[field] == .null ? nil : fields[field] }
        hysteresis = try Self.number(given("hysteresis"), "hysteresis", "metres", maximum: RegionMonitorConfiguration.maximumHysteresis)
        debounce = try Self.number(given("debounce"), "debounce", "seconds", maximum: RegionMonitorConfiguration.maximumDebounce)
        accuracyGating = try Self.flag(given("accuracyGating"), "accuracyGating")
        segmentCrossing = try Self.flag(given("segmentCrossing"), "segmentCrossing")
    }

    /// The stored JSON (as `json` writes it); nil or unreadable text is no choice at all.
    init(json: String?) {
        guard let json, let object = try? JSONValue(parsing: json) else { return }
        hysteresis = object["hysteresis"]?.double
        debounce = object["debounce"]?.double
        accuracyGating = object["accuracyGating"]?.bool
        segmentCrossing = object["segmentCrossing"]?.bool
    }

    init() {}

    var json: String {
        var object: [String: JSONValue] = [:]
        if let hysteresis { object["hysteresis"] = .number(hysteresis) }
        if let debounce { object["debounce"] = .number(debounce) }
        if let accuracyGating { object["accuracyGating"] = .bool(accuracyGating) }
        if let segmentCrossing { object["segmentCrossing"] = .bool(segmentCrossing) }
        return String(decoding: JSONValue.object(object).line, as: UTF8.self)
    }

    func resolved(over defaults: RegionRules) -> RegionRules {
        RegionRules(hysteresis: hysteresis ?? defaults.hysteresis, debounce: debounce ?? defaults.debounce,
                    accuracyGating: accuracyGating ?? defaults.accuracyGating,
                    segmentCrossing: segmentCrossing ?? defaults.segmentCrossing)
    }

    private static func flag(_ value: JSONValue?, _ field: String) throws(ProtocolError) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let flag) = value else { throw .badRequest("\"\(field)\" must be true or false") }
        return flag
    }

    private static func number(_ value: JSONValue?, _ field: String, _ unit: String, maximum: Double) throws(ProtocolError) -> Double? {
        guard let value else { return nil }
        guard case .number(let number) = value, number.isFinite, number >= 0, number <= maximum else {
            throw .badRequest("\"\(field)\" must be a number of \(unit) from 0 to \(Int(maximum))")
        }
        return number
    }
}

/// Stored in the client's row, so `unregister` forgets them with the client.
extension ClientRegionRules {
    static let migration = "v22-rules-client-region-rules"

    static func registerMigration(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration(migration) { db in
            try db.execute(sql: "ALTER TABLE client ADD COLUMN regionRules TEXT")
        }
    }

    func store(_ db: Database, for client: ClientKey) throws {
        try db.execute(sql: "UPDATE client SET regionRules = ? WHERE uid = ? AND clientID = ?",
                       arguments: [self == ClientRegionRules() ? nil : json, client.uid, client.clientID])
    }

    /// Every client's stored choice.
    static func all(_ db: Database) throws -> [ClientKey: ClientRegionRules] {
        let rows = try Row.fetchAll(db, sql: "SELECT uid, clientID, regionRules FROM client WHERE regionRules IS NOT NULL")
        var all: [ClientKey: ClientRegionRules] = [:]
        for row in rows {
            all[ClientKey(uid: UInt32(row["uid"] as Int64), clientID: row["clientID"])] = ClientRegionRules(json: row["regionRules"])
        }
        return all
    }
}
