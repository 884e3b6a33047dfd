import Foundation
import Testing

/// A subscriber that acknowledges its last events and hangs up while the daemon is still writing to it: the daemon's
/// next write fails before it has read those acks, and it must take them all the same.
@Suite struct LastAcksTests {
    @Test func acksSentJustBeforeHangingUpCountWhileTheDaemonIsStillWriting() throws {
        let daemon = DaemonProcess()
        // As fast as the daemon goes: its backlog to each connection is always more than the client has read.
        try daemon.start(speed: 0)
        let subscriber = try RawClient.registered(daemon, as: "org.example.last-acks")
        #expect(try subscriber.request("startStandard")["ok"] as? Bool == true)
        var acked: Int64 = 0
        for round in 1...25 {
            let client = round == 1 ? subscriber : try RawClient.registered(daemon, as: "org.example.last-acks")
            client.collectEvents(until: 20)
            let seqs = client.events.compactMap { ($0["seq"] as? NSNumber)?.int64Value }
            try #require(seqs.count >= 20, "round \(round): the backlog comes")
            #expect(seqs.first! == acked + 1, "round \(round): the first event after the \(acked) acknowledged")
            var acks: [UInt8] = []
            for seq in seqs.prefix(20) { acks += Array(#"{"op":"ack","id":"a","seq":\#(seq)}"#.utf8) + [10] }
            client.sendRaw(acks)
            acked = seqs[19]
            shutdown(client.fd, Int32(SHUT_RDWR))
        }
    }
}
