import CNATS

/// Creates what a fleet needs in JetStream, leaving what exists as it is: a fixes stream per partition (its
/// mapped subjects), the events stream (per-device subjects, de-duplicated on `Nats-Msg-Id`), and the
/// buckets for leases, checkpoints and region sets.
public enum FleetSetup {
    public static func ensure(_ connection: NATSConnection, layout: FleetLayout, timing: FleetTiming = FleetTiming()) throws(NATSError) {
        try refuseSharedFixesStream(connection)
        for partition in 0..<layout.partitions {
            try ensureStream(connection, name: FleetLayout.fixesStream(partition), subject: FleetLayout.fixesStreamSubject(partition),
                             replicas: layout.replicas, duplicateWindow: timing.duplicateWindow)
        }
        try ensureStream(connection, name: FleetLayout.eventsStream, subject: FleetLayout.eventsStreamSubject,
                         replicas: layout.replicas, duplicateWindow: timing.duplicateWindow)
        _ = try KeyValueBucket(connection, name: FleetLayout.leasesBucket, ttlMilliseconds: timing.leaseTTL,
                               replicas: layout.replicas)
        _ = try KeyValueBucket(connection, name: FleetLayout.checkpointsBucket, replicas: layout.replicas)
        _ = try KeyValueBucket(connection, name: FleetLayout.regionsBucket, history: 16, replicas: layout.replicas)
        _ = try KeyValueBucket(connection, name: FleetLayout.assignmentsBucket, history: 16, replicas: layout.replicas)
    }

    /// A fleet set up before `fleet10` kept every partition in one stream, whose subjects the partitions' streams
    /// would overlap, and whose sequences its checkpoints count: it is drained and removed by hand, not converted.
    static func refuseSharedFixesStream(_ connection: NATSConnection) throws(NATSError) {
        var info: UnsafeMutablePointer<jsStreamInfo>?
        var code = jsErrCode(0)
        guard js_GetStreamInfo(&info, connection.jetStream, FleetLayout.sharedFixesStream, nil, &code) == NATS_OK else { return }
        jsStreamInfo_Destroy(info)
        throw NATSError("""
            the stream \(FleetLayout.sharedFixesStream) of an earlier geowake holds every partition's fixes; partitions now have \
            a stream each: let the workers drain it, then delete it and the partition.* checkpoints (docs/fleet.md, upgrading)
            """, NATS_ERR)
    }

    static func ensureStream(_ connection: NATSConnection, name: String, subject: String, replicas: Int,
                             duplicateWindow: Int64) throws(NATSError) {
        var info: UnsafeMutablePointer<jsStreamInfo>?
        var code = jsErrCode(0)
        let found = js_GetStreamInfo(&info, connection.jetStream, name, nil, &code)
        if found == NATS_OK {
            jsStreamInfo_Destroy(info)
            return
        }
        guard found == NATS_NOT_FOUND else { throw NATSError("looking up the stream \(name)", found) }
        var config = jsStreamConfig()
        jsStreamConfig_Init(&config)
        let status = name.withCString { cName in
            subject.withCString { cSubject in
                var subjects: [UnsafePointer<CChar>?] = [cSubject]
                return subjects.withUnsafeMutableBufferPointer { list in
                    config.Name = cName
                    config.Subjects = list.baseAddress
                    config.SubjectsLen = 1
                    config.Storage = js_FileStorage
                    config.Replicas = Int64(replicas)
                    config.Duplicates = duplicateWindow * 1_000_000
                    return js_AddStream(&info, connection.jetStream, &config, nil, &code)
                }
            }
        }
        try check(status, "creating the stream \(name)")
        jsStreamInfo_Destroy(info)
    }
}
