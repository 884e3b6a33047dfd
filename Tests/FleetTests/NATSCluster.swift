import Foundation
import GPSDTestSupport
import TestSupport

/// Real `nats-server`s on loopback: one node, or a three-node JetStream cluster, each with an MQTT listener,
/// the fleet's subject mapping, and its store in a temporary directory removed afterwards.
final class NATSCluster: @unchecked Sendable {
    struct Node {
        var name: String
        var clientPort: Int
        var mqttPort: Int
        var config: String
        var process: ChildProcess?
    }

    let directory: String
    let partitions: Int
    private(set) var nodes: [Node] = []

    var replicas: Int { nodes.count == 1 ? 1 : 3 }
    var servers: String { nodes.map { "nats://127.0.0.1:\($0.clientPort)" }.joined(separator: ",") }
    /// The options every `geowake fleet` command of a test takes.
    var fleetOptions: [String] { ["--servers", servers, "--partitions", "\(partitions)", "--replicas", "\(replicas)"] }

    /// `maxPayload`: the servers' `max_payload`, the largest message (and key-value entry) they take;
    /// `maxPending`: how much a server holds for a client slow to read before it cuts it (64 MB by default).
    init(nodes count: Int, partitions: Int = 8, maxPayload: String = "8MB", maxPending: String? = nil) throws {
        var template = Array("/tmp/geowake-fleet-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TestFailure("mkdtemp failed") }
        directory = String(cString: made)
        self.partitions = partitions
        let clusterPorts = try (0..<count).map { _ in try freePort() }
        for i in 0..<count {
            let name = "n\(i + 1)"
            let node = Node(name: name, clientPort: try freePort(), mqttPort: try freePort(),
                            config: "\(directory)/\(name).conf", process: nil)
            var text = """
            server_name: \(name)
            listen: 127.0.0.1:\(node.clientPort)
            max_payload: \(maxPayload)
            \(maxPending.map { "max_pending: \($0)" } ?? "")
            jetstream { store_dir: "\(directory)/\(name)-store" }
            mqtt { listen: 127.0.0.1:\(node.mqttPort) }
            mappings {
              "geowake.fix.*": "geowake.in.{{partition(\(partitions),1)}}.fix.{{wildcard(1)}}"
              "owntracks.*.*": "geowake.in.{{partition(\(partitions),1,2)}}.owntracks.{{wildcard(1)}}.{{wildcard(2)}}"
            }

            """
            if count > 1 {
                let routes = clusterPorts.map { "nats-route://127.0.0.1:\($0)" }.joined(separator: ", ")
                text += "cluster { name: geowake, listen: 127.0.0.1:\(clusterPorts[i]), routes: [\(routes)] }\n"
            }
            try text.write(toFile: node.config, atomically: true, encoding: .utf8)
            nodes.append(node)
        }
        for i in nodes.indices { try start(i) }
    }

    deinit {
        for i in nodes.indices { nodes[i].process?.kill(signal: SIGKILL) }
        try? FileManager.default.removeItem(atPath: directory)
    }

    func start(_ i: Int) throws {
        nodes[i].process = try ChildProcess(["nats-server", "-c", nodes[i].config], outputPath: "\(directory)/\(nodes[i].name).log")
    }

    /// The last lines of each node's log, for a failure's report.
    func logTails(_ count: Int = 15) -> String {
        nodes.map { node in
            let text = (try? String(contentsOfFile: "\(directory)/\(node.name).log", encoding: .utf8)) ?? ""
            return "\(node.name).log:\n" + text.split(separator: "\n").suffix(count).joined(separator: "\n")
        }.joined(separator: "\n")
    }

    /// `kill -9` of one node.
    func kill(_ i: Int) {
        nodes[i].process?.kill(signal: SIGKILL)
        nodes[i].process = nil
    }

    /// Waits until JetStream answers and the fleet's streams exist (a cluster first elects its leaders).
    func ready() async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if nodes.allSatisfy({ isListening(port: $0.clientPort) }),
               let run = try? FleetRun.geowake(["fleet", "setup"] + fleetOptions), run.status == 0 {
                return
            }
            try await Task.sleep(for: .milliseconds(300))
        }
        throw TestFailure("the NATS cluster did not become ready within 30 s")
    }
}
