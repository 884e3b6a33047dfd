import Foundation
import Testing

/// A client that pipelines requests and never reads its replies: the daemon stops reading it once its replies fill
/// the connection's write buffer, so its memory stays flat, and every other client is served meanwhile.
@Suite(.serialized) struct FloodTests {
    /// Writes `list` requests without reading, until the socket takes no more for a while; returns how many.
    static func flood(_ client: RawClient, seconds: Double) -> Int {
        _ = fcntl(client.fd, F_SETFL, fcntl(client.fd, F_GETFL) | O_NONBLOCK)
        let line = Array(#"{"id":1,"op":"list"}"#.utf8) + [10]
        let batch = Array((0..<100).map { _ in line }.joined())
        var written = 0, sent = 0
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            let n = batch[written...].withUnsafeBytes { write(client.fd, $0.baseAddress, $0.count) }
            if n > 0 {
                written += n
                if written == batch.count { written = 0; sent += 100 }
            } else {
                usleep(5_000)
            }
        }
        return sent
    }

    @Test func aClientPipeliningRequestsItNeverReadsLeavesTheDaemonsMemoryFlatAndOtherClientsAnswered() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: [])
        let flooder = try RawClient.registered(daemon, as: "org.example.flooder")
        // 300 regions with long ids make each `list` reply about 40 KB.
        let features: [[String: Any]] = (0..<300).map { i in
            StraightLineTrace.circle(String(repeating: "r", count: 60) + "\(i)", radius: 50)
        }
        #expect(try flooder.request("monitor", ["features": features])["ok"] as? Bool == true)
        let before = try #require(daemon.residentMiB)

        let other = try RawClient.registered(daemon, as: "org.example.bystander")
        let sent = Self.flood(flooder, seconds: 3)
        let during = try #require(daemon.residentMiB)
        let started = Date()
        let reply = try other.request("status")
        let answeredIn = Date().timeIntervalSince(started)
        #expect(reply["ok"] as? Bool == true)
        #expect(answeredIn < 0.5, "another client is answered while one floods: \(answeredIn) s")
        // Unbounded, the replies to what was sent would take hundreds of MiB (each `list` reply is about 40 KB).
        #expect(sent >= 3_000, "the flood filled the kernel's buffers: \(sent) requests")
        #expect(during - before < 8, "memory stays flat: \(before) MiB before, \(during) MiB while flooded")
    }

    @Test func aFloodedConnectionIsAnsweredInOrderOnceItReads() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: [])
        let client = try RawClient.registered(daemon, as: "org.example.reader")
        let batch: [UInt8] = (1...3000).flatMap { id in Array(#"{"id":\#(id),"op":"regionState","region":"none"}"#.utf8) + [10] }
        let fd = client.fd
        // Written from another thread while this one reads: neither side's buffers need to hold the whole exchange.
        let writer = Thread {
            var offset = 0
            while offset < batch.count {
                let n = batch[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if n <= 0 { return }
                offset += n
            }
        }
        writer.start()
        var ids: [Int] = []
        while ids.count < 3000, let message = client.receive() {
            if message["type"] as? String == "reply", let id = message["id"] as? Int { ids.append(id) }
        }
        #expect(ids.count == 3000 && ids == Array(1...3000), "every pipelined request answered once, in order: \(ids.count) replies")
    }
}
