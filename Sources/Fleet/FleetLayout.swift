/// The names a fleet lives under: streams, subjects, key-value buckets. Every process of one fleet must agree
/// on them, and the servers' subject mapping must use the same partition count.
public struct FleetLayout: Sendable, Equatable {
    /// Partitions, each a fixes stream of its own; the mapping `geowake.fix.*` → `geowake.in.{{partition(N,1)}}.fix.{{wildcard(1)}}`.
    public var partitions: Int
    /// Copies of every stream and bucket (1, or 3 in a three-node cluster).
    public var replicas: Int

    public init(partitions: Int = 8, replicas: Int = 1) {
        self.partitions = partitions
        self.replicas = replicas
    }

    /// The single stream of every partition's fixes that fleets before `fleet10` used: `setup` refuses to run beside it.
    public static let sharedFixesStream = "GEOWAKE_FIXES"
    public static let eventsStream = "GEOWAKE_EVENTS"
    public static let leasesBucket = "geowake-leases"
    public static let checkpointsBucket = "geowake-checkpoints"
    public static let regionsBucket = "geowake-regions"
    public static let assignmentsBucket = "geowake-assignments"

    /// Where devices publish: `geowake.fix.DEVICE`; MQTT `owntracks/USER/DEVICE` arrives as `owntracks.USER.DEVICE`.
    public static func fixSubject(device: String) -> String { "geowake.fix.\(device)" }
    /// One stream per partition, holding that partition's mapped subjects, read by one unfiltered consumer.
    /// nats-server 2.9 counts a consumer's pending messages on each delivery, and for a consumer filtered to a
    /// part of its stream, resuming in the first half of the last file block, that count scanned the block up to
    /// it every time: a backlog of one-fix messages was read at a few messages a second (`SingleFixBacklogTests`).
    /// For an unfiltered consumer the count is a subtraction.
    public static func fixesStream(_ partition: Int) -> String { "GEOWAKE_FIXES_\(partition)" }
    public static func fixesStreamSubject(_ partition: Int) -> String { "geowake.in.\(partition).>" }
    /// A region set's change, written into every partition so that it lands at one place in each device's input.
    public static func regionsMarkerSubject(partition: Int) -> String { "geowake.in.\(partition).regions" }
    /// The assignments' change, written into every partition like a region set's.
    public static func assignmentsMarkerSubject(partition: Int) -> String { "geowake.in.\(partition).assignments" }
    public static func eventSubject(device: String) -> String { "geowake.event.\(device)" }
    public static let eventsStreamSubject = "geowake.event.>"

    public static func leaseKey(_ partition: Int) -> String { "partition.\(partition)" }
    public static func checkpointKey(_ partition: Int) -> String { "partition.\(partition)" }

    /// The `mappings` block every server of the fleet needs (nats-server configuration syntax).
    public var serverMappings: String {
        """
        mappings {
          "geowake.fix.*": "geowake.in.{{partition(\(partitions),1)}}.fix.{{wildcard(1)}}"
          "owntracks.*.*": "geowake.in.{{partition(\(partitions),1,2)}}.owntracks.{{wildcard(1)}}.{{wildcard(2)}}"
        }
        """
    }
}
