import Foundation
import Testing
import TestSupport

/// Real geowaked, real `geowake-test-subscriber` processes using the GeoWake library, real signals, a real store.
@Suite(.serialized) struct EndToEndTests {
    static let client = "org.example.e2e"
    static let trace = DaemonProcess.root + "/traces/berlin-drive.nmea"
    static let regionFile = DaemonProcess.root + "/regions/berlin-1k.geojson"

    /// Registers the client with regions, standard and significant-change updates in one write, so the daemon takes
    /// them all before its first fix; then hangs up, leaving the subscriber to connect.
    static func subscribe(_ daemon: DaemonProcess) throws {
        let raw = try RawClient(daemon.socket)
        _ = raw.receive()
        var batch: [UInt8] = []
        for (id, request) in [["op": "hello", "protocol": 1], ["op": "register", "client": client],
                              ["op": "startStandard"], ["op": "startSignificant"],
                              ["op": "monitor", "file": regionFile]].enumerated() {
            var request = request
            request["id"] = id + 1
            batch += Array(try JSONSerialization.data(withJSONObject: request)) + [10]
        }
        raw.sendRaw(batch)
        for _ in 1...5 {
            let reply = try #require(raw.receive())
            #expect(reply["ok"] as? Bool == true, "\(reply)")
        }
    }

    /// What `geowake replay` prints for the trace with its defaults: region events, standard, significant changes.
    static func replayed() throws -> (regions: [String], standard: [String], significant: [String]) {
        func run(_ arguments: [String]) throws -> [String] { try geowakeReplay([trace] + arguments) }
        return (try run(["--regions", regionFile]), try run(["--service", "standard"]),
                try run(["--service", "significant"]))
    }

    static func kinds(_ handled: [[String: Any]], _ names: Set<String>) -> [String] {
        canonical(handled.filter { names.contains($0["event"] as? String ?? "") })
    }

    static func expectOnceInOrder(_ handled: [[String: Any]], _ comment: Comment) {
        let seqs = handled.map { $0["seq"] as? Int ?? -1 }
        #expect(seqs == Array(1...max(1, seqs.count)), comment)
    }

    /// A daemon replaying the trace at `speed`, the client subscribed, and a subscriber running until the trace ends.
    static func replaying(speed: Double) throws -> (DaemonProcess, SubscriberProcess) {
        let daemon = DaemonProcess()
        try daemon.start(speed: speed)
        try subscribe(daemon)
        let subscriber = try SubscriberProcess(client: client, daemon: daemon, output: daemon.directory + "/handled.jsonl",
                                               options: ["--until-ended"])
        return (daemon, subscriber)
    }

    @Test func aSubscriberHandlesTheSameRegionStandardAndSignificantEventsAsGeowakeReplay() throws {
        let (daemon, subscriber) = try Self.replaying(speed: 100)
        #expect(subscriber.finished(within: 60), "the subscriber handled the end of the trace; log: \(daemon.log)")
        let handled = SubscriberProcess.handled(subscriber.output)
        let reference = try Self.replayed()
        Self.expectOnceInOrder(handled, "every event once, in order")
        #expect(firstDifference(Self.kinds(handled, ["enter", "exit"]), reference.regions) == nil)
        #expect(firstDifference(Self.kinds(handled, ["location"]), reference.standard) == nil)
        #expect(firstDifference(Self.kinds(handled, ["significant"]), reference.significant) == nil)
        #expect(reference.regions.count > 10 && reference.standard.count > 1000)
    }

    @Test func theDaemonKilledAtRandomPointsAndRestartedGivesUserCodeEveryEventOnceInOrder() throws {
        let (reference, whole) = try Self.replaying(speed: 0)
        // The reference daemon serves `whole` until it has handled the trace's end.
        withExtendedLifetime(reference) { #expect(whole.finished(within: 60)) }
        let expected = canonical(SubscriberProcess.handled(whole.output))

        let (daemon, subscriber) = try Self.replaying(speed: 100)
        var generator = SeededGenerator(seed: 13)
        for _ in 0..<4 {
            usleep(UInt32.random(in: 300_000...2_000_000, using: &generator))
            daemon.stop(signal: SIGKILL)
            try daemon.start(speed: 100)
        }
        #expect(subscriber.finished(within: 90), "the subscriber handled the end of the trace; log: \(daemon.log)")
        let handled = SubscriberProcess.handled(subscriber.output)
        Self.expectOnceInOrder(handled, "no event handled twice or skipped across four SIGKILLs")
        #expect(firstDifference(canonical(handled), expected) == nil)
        var inside: Set<String> = [], repeated: [String] = []
        for event in handled {
            guard let region = event["region"] as? String else { continue }
            let entered = event["event"] as? String == "enter"
            if entered == inside.contains(region) { repeated.append(region) }
            if entered { inside.insert(region) } else { inside.remove(region) }
        }
        #expect(repeated.isEmpty, "regions entered while inside or exited while outside")
        #expect(handled.filter { $0["event"] as? String == "enter" }.count >= 10)
    }

    @Test func aSubscriberThatLeavesAndComesBackHandlesTheBacklogOnceInOrder() throws {
        let daemon = DaemonProcess()
        try daemon.start(speed: 100)
        try Self.subscribe(daemon)
        let output = daemon.directory + "/handled.jsonl"
        let first = try SubscriberProcess(client: Self.client, daemon: daemon, output: output, options: ["--exit-after", "200"])
        #expect(first.finished(within: 30))
        #expect(SubscriberProcess.handled(output).count == 200)
        usleep(1_500_000)   // events queue meanwhile
        let second = try SubscriberProcess(client: Self.client, daemon: daemon, output: output, options: ["--until-ended"])
        #expect(second.finished(within: 60))
        let handled = SubscriberProcess.handled(output)
        Self.expectOnceInOrder(handled, "the backlog after the first left, once, in order")
        #expect(handled.count > 1000)
    }
}
