import Foundation
import GeoWakeCore
import JSONLines
import LocationServices
import GeoWakeProtocol

/// Each client's standard, significant-change and visit services, each run by `ServiceReplay`, the driver `geowake
/// replay` runs, with the configuration it was started with. Their detectors' memories are stored with the events
/// that changed them, so a restart continues where they were.
struct ClientServices {
    struct Services {
        var standard: ServiceReplay<StandardLocationFilter>?
        var significant: ServiceReplay<SignificantChangeDetector>?
        var visits: ServiceReplay<VisitDetector>?
        var configurations: [ServiceKind: ServiceConfiguration] = [:]
    }

    private(set) var byClient: [ClientKey: Services] = [:]

    var isEmpty: Bool { byClient.values.allSatisfy { $0.configurations.isEmpty } }

    /// The kinds a client has started, with their options as `list` shows them.
    func kinds(of client: ClientKey) -> [String: String] {
        var kinds: [String: String] = [:]
        for (kind, configuration) in byClient[client]?.configurations ?? [:] { kinds[kind.rawValue] = configuration.json }
        return kinds
    }

    func configuration(of kind: ServiceKind, for client: ClientKey) -> ServiceConfiguration? {
        byClient[client]?.configurations[kind]
    }

    /// Starts a service; starting it again with the same options keeps its state (a relaunched subscriber starts its
    /// services again), other options start it afresh. Returns whether anything changed.
    @discardableResult
    mutating func start(_ configuration: ServiceConfiguration, for client: ClientKey) -> Bool {
        var services = byClient[client] ?? Services()
        guard services.configurations[configuration.kind] != configuration else { return false }
        switch configuration {
        case .standard(let options): services.standard = ServiceReplay(StandardLocationFilter(configuration: options))
        case .significant(let options): services.significant = ServiceReplay(SignificantChangeDetector(configuration: options))
        case .visits(let options): services.visits = ServiceReplay(VisitDetector(configuration: options))
        }
        services.configurations[configuration.kind] = configuration
        byClient[client] = services
        return true
    }

    mutating func stop(_ kind: ServiceKind, for client: ClientKey) {
        guard var services = byClient[client] else { return }
        switch kind {
        case .standard: services.standard = nil
        case .significant: services.significant = nil
        case .visits: services.visits = nil
        }
        services.configurations[kind] = nil
        byClient[client] = services.configurations.isEmpty ? nil : services
    }

    mutating func removeAll(of client: ClientKey) { byClient[client] = nil }

    /// The event lines one fix produces, per client, and the detector memories it changed (to store with them). A
    /// fix without a time is fed at `now`, the daemon's clock; the rest is `replay`'s loop and its event lines.
    mutating func update(with fix: Fix, at now: Timestamp) -> (events: [ClientEvent], memories: [ServiceMemory]) {
        var out: [ClientEvent] = []
        var memories: [ServiceMemory] = []
        var stamped = fix
        if stamped.time == nil { stamped.time = now }
        var writer = JSONLineWriter(reservingCapacity: 256)
        for client in byClient.keys.sorted() {
            var services = byClient[client]!
            Self.feed(&services.standard, stamped, kind: .standard, client, &memories) { update in
                writer.fixEventLine("location", update.fix)
                out.append(ClientEvent(client: client, launchReason: .location, line: Self.object(&writer)))
            }
            Self.feed(&services.significant, stamped, kind: .significant, client, &memories) { change in
                writer.fixEventLine("significant", change.fix)
                out.append(ClientEvent(client: client, launchReason: .significantChange, line: Self.object(&writer)))
            }
            if services.visits != nil {
                let before = services.visits!.service.memory
                services.visits!.feed(stamped) { visits in
                    for event in visits {
                        writer.visitLine(event.visit, reportedAt: event.reportedAt)
                        out.append(ClientEvent(client: client, launchReason: .visit, line: Self.object(&writer)))
                    }
                }
                let after = services.visits!.service.memory
                if after != before { memories.append(ServiceMemory(client: client, kind: ServiceKind.visits.rawValue, after)) }
            }
            byClient[client] = services
        }
        return (out, memories)
    }

    /// One fix through a standard or significant-change service; its memory is kept with the events it delivered.
    private static func feed<Service: LocationService>(_ replay: inout ServiceReplay<Service>?, _ fix: Fix, kind: ServiceKind,
                                                       _ client: ClientKey, _ memories: inout [ServiceMemory],
                                                       _ each: (Service.Event) -> Void)
    where Service.Input == Fix, Service: RemembersReports {
        guard replay != nil else { return }
        var delivered = false
        replay!.feed(fix) { events in
            events.forEach(each)
            delivered = true
        }
        if delivered { memories.append(ServiceMemory(client: client, kind: kind.rawValue, replay!.service.memory)) }
    }

    static func object(_ writer: inout JSONLineWriter) -> String {
        let line = String(decoding: writer.bytes.dropLast(), as: UTF8.self)
        writer.removeAll()
        return line
    }

    mutating func restore(from store: DaemonStore) throws {
        for subscription in try store.subscriptions() {
            guard let kind = ServiceKind(rawValue: subscription.kind) else { continue }
            let options = (try? JSONValue(parsing: subscription.options))?.object ?? [:]
            guard let configuration = try? ServiceConfiguration(kind, options: options) else { continue }
            start(configuration, for: subscription.client)
            if let memory = subscription.memory { restore(memory, kind: kind, for: subscription.client) }
        }
    }

    /// Puts a stored memory back into a restored service; a memory that does not decode leaves the service fresh.
    mutating func restore(_ json: String, kind: ServiceKind, for client: ClientKey) {
        guard var services = byClient[client] else { return }
        let data = Data(json.utf8), decoder = JSONDecoder()
        switch kind {
        case .standard:
            if let memory = try? decoder.decode(ReportMemory.self, from: data) { services.standard?.service.memory = memory }
        case .significant:
            if let memory = try? decoder.decode(ReportMemory.self, from: data) { services.significant?.service.memory = memory }
        case .visits:
            if let memory = try? decoder.decode(VisitDetector.Memory.self, from: data) { services.visits?.service.memory = memory }
        }
        byClient[client] = services
    }
}

/// The services whose memory is a `ReportMemory`: the standard filter and significant change.
protocol RemembersReports {
    var memory: ReportMemory { get }
}

extension StandardLocationFilter: RemembersReports {}
extension SignificantChangeDetector: RemembersReports {}
