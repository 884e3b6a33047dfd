/// The assignments of region sets to devices, kept in the bucket `geowake-assignments` under the key
/// `assignments` (its text form; every version a revision), changed by `geowake fleet assign`, which then
/// announces the revision in every partition so each device switches at one place in its input.
public enum FleetAssignments {
    static let key = "assignments"

    static func bucket(_ connection: NATSConnection, replicas: Int) throws(NATSError) -> KeyValueBucket {
        try KeyValueBucket(connection, name: FleetLayout.assignmentsBucket, history: 16, replicas: replicas)
    }

    /// Checks and stores `text`, then announces it; returns the new revision.
    public static func put(_ connection: NATSConnection, text: String, layout: FleetLayout) throws -> UInt64 {
        let assignments = try RegionAssignments(text: text)
        try FleetSetup.ensure(connection, layout: layout)
        let revision = try bucket(connection, replicas: layout.replicas).put(key, Array(assignments.text.utf8))
        let marker = AssignmentsMarker.payload(revision: revision)
        for partition in 0..<layout.partitions {
            try connection.publishAcknowledged(FleetLayout.assignmentsMarkerSubject(partition: partition), marker,
                                               messageID: "assignments:\(revision):\(partition)")
        }
        return revision
    }

    /// The assignments as they were at `revision`.
    static func read(_ bucket: KeyValueBucket, revision: UInt64) throws -> RegionAssignments {
        guard let entry = try bucket.get(key, revision: revision) else {
            throw FleetError("the assignments have no revision \(revision) (older than the bucket's history?)")
        }
        return try RegionAssignments(text: String(decoding: entry.value, as: UTF8.self))
    }
}
