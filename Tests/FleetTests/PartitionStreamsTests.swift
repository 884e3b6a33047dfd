import CNATS
import Testing
import TestSupport
@testable import Fleet

/// The fixes as one stream per partition (`FleetLayout.fixesStream(_:)`), through a real `nats-server`.
@Suite(.serialized, .timeLimit(.minutes(1))) struct PartitionStreamsTests {
    @Test("Setup makes one fixes stream per partition holding that partition's subjects, and a partition's consumer on it has no filter")
    func setupMakesAStreamPerPartition() async throws {
        let cluster = try NATSCluster(nodes: 1, partitions: 3)
        try await cluster.ready()
        let connection = try NATSConnection(servers: [cluster.servers], name: "test")
        for partition in 0..<3 {
            var info: UnsafeMutablePointer<jsStreamInfo>?
            var code = jsErrCode(0)
            #expect(js_GetStreamInfo(&info, connection.jetStream, FleetLayout.fixesStream(partition), nil, &code) == NATS_OK)
            defer { jsStreamInfo_Destroy(info) }
            let config = try #require(info).pointee.Config.pointee
            #expect(config.SubjectsLen == 1 && String(cString: config.Subjects[0]!) == "geowake.in.\(partition).>")
        }
        _ = try PartitionSubscription(connection, partition: 2, from: 1)
        var consumer: UnsafeMutablePointer<jsConsumerInfo>?
        var code = jsErrCode(0)
        #expect(js_GetConsumerInfo(&consumer, connection.jetStream, FleetLayout.fixesStream(2),
                                   PartitionSubscription.durableName(2), nil, &code) == NATS_OK)
        defer { jsConsumerInfo_Destroy(consumer) }
        #expect(try #require(consumer).pointee.Config.pointee.FilterSubject == nil)
    }

    @Test("A fleet set up before partition streams, with its one GEOWAKE_FIXES stream, is refused with how to upgrade, and no partition stream is made beside it")
    func sharedFixesStreamIsRefused() async throws {
        let cluster = try NATSCluster(nodes: 1)
        // The old layout's stream, made as its setup made it, once the server answers (no setup of today's first).
        var opened: NATSConnection?
        let deadline = ContinuousClock.now + .seconds(20)
        while opened == nil, ContinuousClock.now < deadline {
            if let made = try? NATSConnection(servers: [cluster.servers], name: "test"),
               (try? FleetSetup.ensureStream(made, name: FleetLayout.sharedFixesStream, subject: "geowake.in.>", replicas: 1,
                                              duplicateWindow: 120_000)) != nil {
                opened = made
            } else {
                try await Task.sleep(for: .milliseconds(200))
            }
        }
        let connection = try #require(opened, "the server did not start")
        #expect {
            try FleetSetup.ensure(connection, layout: FleetLayout(partitions: 8))
        } throws: { error in
            "\(error)".contains("GEOWAKE_FIXES") && "\(error)".contains("drain")
        }
        var info: UnsafeMutablePointer<jsStreamInfo>?
        var code = jsErrCode(0)
        #expect(js_GetStreamInfo(&info, connection.jetStream, FleetLayout.fixesStream(0), nil, &code) == NATS_NOT_FOUND)
    }
}
