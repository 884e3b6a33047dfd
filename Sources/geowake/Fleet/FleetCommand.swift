#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Fleet

/// `geowake fleet …`: region monitoring for many devices at once, on NATS JetStream (docs/fleet.md).
struct FleetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fleet",
        abstract: "Region monitoring for a fleet of devices, on NATS JetStream (see docs/fleet.md).",
        subcommands: [FleetSetupCommand.self, FleetPublishCommand.self, FleetWorkerCommand.self, FleetEventsCommand.self,
                      FleetRegionsCommand.self, FleetAssignCommand.self, FleetDrainCommand.self]
    )
}

/// Where the fleet's NATS cluster is and how its streams are laid out; every fleet command takes these.
struct FleetConnectionOptions: ParsableArguments {
    @Option(help: "NATS servers, comma-separated (all of a cluster's, for failover).")
    var servers = "nats://127.0.0.1:4222"

    @Option(parsing: .unconditional, help: "Partitions of the fixes stream: the N of the servers' partition(N,…) mapping.")
    var partitions = 8

    @Option(parsing: .unconditional, help: "Replicas of each stream and bucket when they are created (3 in a three-node cluster).")
    var replicas = 1

    func validate() throws {
        guard (1...1024).contains(partitions) else { throw ValidationError("--partitions must be 1 to 1024") }
        guard [1, 3, 5].contains(replicas) else { throw ValidationError("--replicas must be 1, 3 or 5") }
    }

    var layout: FleetLayout { FleetLayout(partitions: partitions, replicas: replicas) }

    func connect(name: String, ioBufferBytes: Int? = nil, sendsAtOnce: Bool = false) throws -> NATSConnection {
        do {
            return try NATSConnection(servers: servers.split(separator: ",").map(String.init), name: name,
                                      ioBufferBytes: ioBufferBytes, sendsAtOnce: sendsAtOnce)
        } catch {
            throw CommandError("\(error)")
        }
    }
}

/// `geowake fleet setup`: creates the streams and buckets, and prints the servers' subject mapping.
struct FleetSetupCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup",
        abstract: "Create the fleet's streams and buckets (if missing) and print the mapping every server needs."
    )

    @Flag(help: "Only print the mapping (for writing the servers' configuration before they start).")
    var printMappings = false

    @OptionGroup var nats: FleetConnectionOptions

    func run() throws {
        if !printMappings {
            let connection = try nats.connect(name: "geowake fleet setup")
            try FleetSetup.ensure(connection, layout: nats.layout)
        }
        print(nats.layout.serverMappings)
    }
}

/// One line to standard error, written whole.
func fleetNote(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
}
