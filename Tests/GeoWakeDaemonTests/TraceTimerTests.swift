import Foundation
import Testing

/// With a trace source, a dwell or a debounced change due between two sparse fixes is sent when the replay reaches
/// its instant, stamped with it, before the next fix is fed.
@Suite(.serialized) struct TraceTimerTests {
    /// Outside at 0 s, at the centre at 10 s, the next fix only at 60 s, then away.
    static let sparse = StraightLineTrace(points: [(0, -600), (10, 0), (60, 0), (61, 600)])

    /// Reads one client's events until one of `kind`; the whole event.
    static func awaitEvent(_ client: RawClient, _ kind: String) -> [String: Any]? {
        while true {
            if let event = client.events.compactMap({ $0["event"] as? [String: Any] }).first(where: { $0["event"] as? String == kind }) {
                return event
            }
            let count = client.events.count
            client.collectEvents(until: count + 1)
            if client.events.count == count { return nil }
        }
    }

    static func lastFixTime(_ client: RawClient) throws -> String? {
        let source = (try client.request("status")["result"] as? [String: Any])?["source"] as? [String: Any]
        return (source?["lastFix"] as? [String: Any])?["time"] as? String
    }

    @Test func aDwellAndADebouncedEntryDueBetweenSparseFixesArriveBeforeTheNextFixStampedWhenDue() throws {
        let daemon = DaemonProcess()
        let trace = try Self.sparse.write(to: daemon.directory)
        let dwelling = StraightLineTrace.circle("dwelling", properties: ["dwell": 5])
        try daemon.start(trace: trace, speed: 4)   // fixes at 0, 2.5 and 15 s of wall time
        let started = Date()
        let dweller = try RawClient.registered(daemon, as: "org.example.dweller")
        let waiter = try RawClient.registered(daemon, as: "org.example.waiter")
        #expect(try dweller.request("monitor", ["features": [dwelling]])["ok"] as? Bool == true)
        #expect(try waiter.request("monitor", ["features": [StraightLineTrace.circle("debounced")], "debounce": 3])["ok"] as? Bool == true)

        let dwell = try #require(Self.awaitEvent(dweller, "dwell"))
        #expect(dwell["time"] as? String == StraightLineTrace.time(15))
        #expect(try Self.lastFixTime(dweller) == StraightLineTrace.time(10), "the fix at 60 s was not fed yet")
        let enter = try #require(Self.awaitEvent(waiter, "enter"))
        #expect(enter["time"] as? String == StraightLineTrace.time(13))
        #expect(try Self.lastFixTime(waiter) == StraightLineTrace.time(10), "the fix at 60 s was not fed yet")
        #expect(Date().timeIntervalSince(started) < 14)

        let regions = try StraightLineTrace.regionFile([dwelling], in: daemon.directory)
        let replayed = try StraightLineTrace.replayed(trace, regions: regions)
        let handled = canonical(dweller.events.compactMap { $0["event"] as? [String: Any] })
        #expect(firstDifference(handled, Array(replayed.prefix(2))) == nil, "enter and dwell as replay gives them")
    }
}
