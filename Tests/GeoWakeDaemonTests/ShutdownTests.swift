import Foundation
import Testing

/// SIGTERM and SIGINT reach the daemon through swift-service-lifecycle: it finishes its loop's turn, closes its
/// connections, removes its socket and exits 0; what it committed is there on the next start.
@Suite(.serialized) struct ShutdownTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aStopSignalEndsTheDaemonGracefullyAndItsClientsSurviveTheRestart(signal: Int32) throws {
        let daemon = DaemonProcess()
        try daemon.start(speed: 1)
        do {
            let client = try RawClient.registered(daemon, as: "org.example.stopping")
            _ = try client.request("startStandard")
            client.collectEvents(until: 1)
            #expect(daemon.exitStatus(after: signal, within: 10) == 0)
            #expect(client.receive() == nil, "the connection was closed")
        }
        #expect(!FileManager.default.fileExists(atPath: daemon.socket), "the socket was removed")
        #expect((try? String(contentsOfFile: daemon.log, encoding: .utf8))?.contains("geowaked stopping") == true)

        try daemon.start(speed: 1)
        let again = try RawClient(daemon.socket)
        try again.hello()
        let registered = try again.request("register", ["client": "org.example.stopping"])
        #expect((registered["result"] as? [String: Any])?["created"] as? Bool == false)
        let list = try again.request("list")
        let kinds = ((list["result"] as? [String: Any])?["subscriptions"] as? [[String: Any]])?.map { $0["kind"] as? String }
        #expect(kinds == ["standard"])
    }
}
