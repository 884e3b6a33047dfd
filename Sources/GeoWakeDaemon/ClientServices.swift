import Foundation
import GeoWakeCore
import JSONLines
import GRDB
import LocationServices

/// Each client's standard, significant-change and visit services with the options they were started with.
/// Their detectors' memories are stored with the events that changed them, so a restart continues where they were.
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

    /// The event lines one fix produces, per client, and the detector memories it changed (to store with them).
    mutating func update(with fix: Fix, at now: Timestamp) -> (events: [(ClientKey, LaunchReason?, String)], memories: [ServiceMemory]) {
        var out: [(ClientKey, LaunchReason?, String)] = []
        var memories: [ServiceMemory] = []
        for client in byClient.keys.sorted() {
            var services = byClient[client]!
            var writer = JSONLineWriter(reservingCapacity: 256)
            if let delivered = services.standard?.update(with: fix, at: now) {
                writer.fixEventLine("location", delivered)
                out.append((client, .location, Self.object(&writer)))
                memories.append(ServiceMemory(client: client, kind: "standard", services.standard!.memory))
            }
            if let delivered = services.significant?.update(with: fix, at: now) {
                writer.fixEventLine("significant", delivered)
                out.append((client, .significantChange, Self.object(&writer)))
                memories.append(ServiceMemory(client: client, kind: "significant", services.significant!.memory))
            }
            if services.visits != nil {
                let before = services.visits!.memory
                for visit in services.visits!.update(with: fix, at: now) {
                    writer.visitLine(visit, reportedAt: now)
                    out.append((client, .visit, Self.object(&writer)))
                }
                let after = services.visits!.memory
                if after != before { memories.append(ServiceMemory(client: client, kind: "visits", after)) }
            }
            byClient[client] = services
        }
        return (out, memories)
    }

    static func object(_ writer: inout JSONLineWriter) -> String {
        let line = String(decoding: writer.bytes.dropLast(), as: UTF8.self)
        writer.removeAll()
        return line
    }

    mutating func restore(from store: DaemonStore) throws {
        let rows = try store.queue.read { db in try Row.fetchAll(db, sql: "SELECT uid, clientID, kind, options, memory FROM subscription") }
        for row in rows {
            let client = ClientKey(uid: UInt32(row["uid"] as Int64), clientID: row["clientID"])
            let options = (try? JSONSerialization.jsonObject(with: Data((row["options"] as String).utf8))) as? [String: Any] ?? [:]
            try? start(row["kind"], options: options, for: client)
            if let memory = row["memory"] as String? { restore(memory, kind: row["kind"], for: client) }
        }
    }

    /// Puts a stored memory back into a restored service; a memory that does not decode leaves the service fresh.
    mutating func restore(_ json: String, kind: String, for client: ClientKey) {
        guard var services = byClient[client] else { return }
        let data = Data(json.utf8), decoder = JSONDecoder()
        switch kind {
        case "standard":
            if let memory = try? decoder.decode(ReportMemory.self, from: data) { services.standard?.memory = memory }
        case "significant":
            if let memory = try? decoder.decode(ReportMemory.self, from: data) { services.significant?.memory = memory }
        default:
            if let memory = try? decoder.decode(VisitDetector.Memory.self, from: data) { services.visits?.memory = memory }
        }
        byClient[client] = services
    }
}
