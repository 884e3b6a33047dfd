import Foundation
@testable import GeoWake
import Synchronization
import Testing

@Suite struct BackgroundTaskTests {
    @Test func aBackgroundTaskReportsItsIdAndBudgetAndEndingItTellsTheDaemon() async throws {
        let peer = try ProtocolPeer()
        let manager = try await LocationManager(clientID: "org.example.test", socketPath: peer.path)
        let task = try await manager.beginBackgroundTask()
        #expect(task == BackgroundTask(id: 1, budgetLeft: 9.5))
        #expect(peer.openTasks == [1])
        try await manager.endBackgroundTask(task)
        #expect(peer.openTasks.isEmpty)
        manager.stop()
    }

    @Test func theExpiringNoticeRunsEachOpenTasksHandlerOnce() async throws {
        let peer = try ProtocolPeer()
        let manager = try await LocationManager(clientID: "org.example.test", socketPath: peer.path)
        let runs = Mutex<[Int]>([])
        let first = try await manager.beginBackgroundTask { runs.withLock { $0.append(1) } }
        _ = try await manager.beginBackgroundTask { runs.withLock { $0.append(2) } }
        try await manager.endBackgroundTask(first)
        let third = try await manager.beginBackgroundTask { runs.withLock { $0.append(3) } }
        peer.notice(#"{"type":"expiring","budgetLeft":4.9}"#)
        peer.notice(#"{"type":"expiring","budgetLeft":0.5}"#)
        #expect(try await LocationManagerDeliveryTests.eventually { runs.withLock { $0.count } == 2 })
        try await Task.sleep(for: .milliseconds(100))
        #expect(runs.withLock { $0 } == [2, 3], "an ended task's handler ran, or one ran twice")
        try await manager.endBackgroundTask(third)
        manager.stop()
    }

    @Test func aRelaunchableClientRegistersItsLaunchOptions() async throws {
        let peer = try ProtocolPeer()
        let manager = try await LocationManager(
            clientID: "org.example.test", relaunch: .executable("/usr/bin/tracker", arguments: ["--quiet"]),
            options: LaunchOptions(relaunchAfterForceQuit: false, locationInBackground: true), socketPath: peer.path)
        let register = try #require(peer.lastRegister)
        #expect(register["launch"] == .array(["/usr/bin/tracker", "--quiet"]))
        #expect(register["options"]?["relaunchAfterForceQuit"] == .bool(false))
        #expect(register["options"]?["backgroundModes"] == .array(["location"]))
        manager.stop()
    }
}
