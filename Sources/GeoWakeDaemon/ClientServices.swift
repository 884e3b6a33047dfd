import Foundation
import GeoWakeCore
import JSONLines
import GRDB
import LocationServices

/// Each client's standard, significant-change and visit services with the options they were started with.
/// Their detector state lives in memory only: after a restart they start afresh (see docs/durability.md).
struct ClientServices {
    struct Services {
        var standard: StandardLocationFilter?
        var significant: SignificantChangeDetector?
        var visits: VisitDetector?
        var options: [String: String] = [:]
    }

    private(set) var byClient: [ClientKey: Services] = [:]

    var isEmpty: Bool { byClient.values.allSatisfy { $0.options.isEmpty } }

    func kinds(of client: ClientKey) -> [String: String] { byClient[client]?.options ?? [:] }

    mutating func start(_ kind: String, options: [String: Any], for client: ClientKey) throws(ProtocolError) {
        var services = byClient[client] ?? Services()
        func number(_ key: String, _ fallback: Double?) throws(ProtocolError) -> Double? {
            guard let value = options[key] else { return fallback }
            guard let number = jsonNumber(value), number.isFinite else {
                throw .badRequest("\"\(key)\" must be a finite number")
            }
            return number
        }
        var stored: [String: Any] = [:]
        do {
            switch kind {
            case "standard":
                let configuration = StandardLocationFilter.Configuration(
                    distanceFilter: try number("distanceFilter", 0)!, desiredAccuracy: try number("desiredAccuracy", nil))
                try configuration.validate()
                services.standard = StandardLocationFilter(configuration: configuration)
                stored = ["distanceFilter": configuration.distanceFilter]
                if let accuracy = configuration.desiredAccuracy { stored["desiredAccuracy"] = accuracy }
            case "significant":
                let configuration = SignificantChangeDetector.Configuration(
                    distance: try number("distance", 500)!, interval: try number("interval", 300)!)
                try configuration.validate()
                services.significant = SignificantChangeDetector(configuration: configuration)
                stored = ["distance": configuration.distance, "interval": configuration.interval]
            default:
                let configuration = VisitDetector.Configuration(
                    radius: try number("radius", 100)!, minimumDuration: try number("minimumDuration", 300)!)
                try configuration.validate()
                services.visits = VisitDetector(configuration: configuration)
                stored = ["radius": configuration.radius, "minimumDuration": configuration.minimumDuration]
            }
        } catch let error as ProtocolError {
            throw error
        } catch {
            throw .badRequest("\(error)")
        }
        let json = try? JSONSerialization.data(withJSONObject: stored, options: [.sortedKeys])
        services.options[kind] = json.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        byClient[client] = services
    }

    mutating func stop(_ kind: String, for client: ClientKey) {
        guard var services = byClient[client] else { return }
        switch kind {
        case "standard": services.standard = nil
        case "significant": services.significant = nil
        default: services.visits = nil
        }
        services.options[kind] = nil
        byClient[client] = services.options.isEmpty ? nil : services
    }

    mutating func removeAll(of client: ClientKey) { byClient[client] = nil }

    /// The event lines one fix produces, per client.
    mutating func update(with fix: Fix, at now: Timestamp) -> [(ClientKey, LaunchReason?, String)] {
        var out: [(ClientKey, LaunchReason?, String)] = []
        for client in byClient.keys.sorted() {
            var services = byClient[client]!
            var writer = JSONLineWriter(reservingCapacity: 256)
            if let delivered = services.standard?.update(with: fix, at: now) {
                writer.fixEventLine("location", delivered)
                out.append((client, .location, Self.object(&writer)))
            }
            if let delivered = services.significant?.update(with: fix, at: now) {
                writer.fixEventLine("significant", delivered)
                out.append((client, .significantChange, Self.object(&writer)))
            }
            for visit in services.visits?.update(with: fix, at: now) ?? [] {
                writer.visitLine(visit, reportedAt: now)
                out.append((client, .visit, Self.object(&writer)))
            }
            byClient[client] = services
        }
        return out
    }

    static func object(_ writer: inout JSONLineWriter) -> String {
        let line = String(decoding: writer.bytes.dropLast(), as: UTF8.self)
        writer.removeAll()
        return line
    }

    mutating func restore(from store: DaemonStore) throws {
        let rows = try store.queue.read { db in try Row.fetchAll(db, sql: "SELECT uid, clientID, kind, options FROM subscription") }
        for row in rows {
            let client = ClientKey(uid: UInt32(row["uid"] as Int64), clientID: row["clientID"])
            let options = (try? JSONSerialization.jsonObject(with: Data((row["options"] as String).utf8))) as? [String: Any] ?? [:]
            try? start(row["kind"], options: options, for: client)
        }
    }
}
