import CNATS

/// Creates what a fleet needs in JetStream, leaving what exists as it is: the fixes stream (the mapped,
/// partitioned subjects), the events stream (per-device subjects, de-duplicated on `Nats-Msg-Id`), and the
/// buckets for leases, checkpoints and region sets.
public enum FleetSetup {
    public static func ensure(_ connection: NATSConnection, layout: FleetLayout, timing: FleetTiming = FleetTiming()) throws(NATSError) {
        try ensureStream(connection, name: FleetLayout.fixesStream, subject: FleetLayout.fixesStreamSubject,
                         replicas: layout.replicas, duplicateWindow: timing.duplicateWindow)
        try ensureStream(connection, name: FleetLayout.eventsStream, subject: FleetLayout.eventsStreamSubject,
                         replicas: layout.replicas, duplicateWindow: timing.duplicateWindow)
        _ = try KeyValueBucket(connection, name: FleetLayout.leasesBucket, ttlMilliseconds: timing.leaseTTL,
                               replicas: layout.replicas)
        _ = try KeyValueBucket(connection, name: FleetLayout.checkpointsBucket, replicas: layout.replicas)
        _ = try KeyValueBucket(connection, name: FleetLayout.regionsBucket, history: 16, replicas: layout.replicas)
        _ = try KeyValueBucket(connection, name: FleetLayout.assignmentsBucket, history: 16, replicas: layout.replicas)
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
