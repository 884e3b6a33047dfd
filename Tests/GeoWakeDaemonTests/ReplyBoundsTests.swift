import Foundation
import Testing
import TestSupport

/// No line the daemon sends exceeds the 1 MiB it accepts: region ids are bounded, `monitor` answers with a count,
/// and `list` comes in pages.
@Suite(.serialized) struct ReplyBoundsTests {
    static func ids(_ reply: [String: Any]) -> [String] {
        ((reply["result"] as? [String: Any])?["regions"] as? [[String: Any]] ?? []).map { $0["region"] as? String ?? "" }
    }

    @Test func listComesInPagesOfAtMostAThousandRegionsInByteOrder() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: [])
        let client = try RawClient.registered(daemon, as: "org.example.pages")
        let names = (0..<2_500).map { String(format: "r%05d", $0) }
        for chunk in stride(from: 0, to: names.count, by: 500) {
            let features = names[chunk..<chunk + 500].map { StraightLineTrace.circle($0, radius: 20) }
            let reply = try client.request("monitor", ["features": features])
            #expect((reply["result"] as? [String: Any])?["added"] as? Int == 500, "\(reply)")
        }
        let first = try client.request("list")
        #expect(Self.ids(first) == Array(names[0..<1_000]))
        #expect((first["result"] as? [String: Any])?["more"] as? Bool == true)
        var all = Self.ids(first)
        var reply = first
        while (reply["result"] as? [String: Any])?["more"] as? Bool == true {
            reply = try client.request("list", ["after": all.last!])
            all += Self.ids(reply)
        }
        #expect(all == names, "the pages together are every region once, in byte order")
        let small = try client.request("list", ["after": "r00010", "limit": 3])
        #expect(Self.ids(small) == ["r00011", "r00012", "r00013"])
        #expect(errorCode(try client.request("list", ["limit": 0])) == "badRequest")
        #expect(errorCode(try client.request("list", ["limit": 1_001])) == "badRequest")

        // `geowake subscriptions` follows the pages.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: builtExecutable("geowake"))
        process.arguments = ["subscriptions", "org.example.pages", "--socket", daemon.socket]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        #expect(lines.filter { $0.contains(#""kind":"region""#) }.count == names.count, "every region, over three pages")
    }

    @Test func aRegionIDLongerThan255BytesOrWithControlCharactersIsRefusedAndNothingAdded() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: [])
        let client = try RawClient.registered(daemon, as: "org.example.ids")
        for id in [String(repeating: "x", count: 256), "tab\tbed", ""] {
            let reply = try client.request("monitor", ["features": [StraightLineTrace.circle("fine"), StraightLineTrace.circle(id)]])
            #expect(errorCode(reply) == "badGeoJSON", "\(id.count)-byte id: \(reply)")
        }
        #expect(Self.ids(try client.request("list")).isEmpty, "all or nothing")
        let longest = String(repeating: "é", count: 127) + "x"   // 255 bytes
        #expect(try client.request("monitor", ["features": [StraightLineTrace.circle(longest)]])["ok"] as? Bool == true)
        #expect(Self.ids(try client.request("list")) == [longest])
    }

    @Test func nestingDeeperThan512LevelsIsBadJSONAndTheConnectionStaysOpen() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: [])
        let client = try RawClient(daemon.socket)
        try client.hello()
        func status(nestedArrays depth: Int) -> [String: Any]? {
            let line = #"{"id":7,"op":"status","unknown":"# + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "}\n"
            client.sendRaw(Array(line.utf8))
            return client.receive()
        }
        #expect(status(nestedArrays: 511)?["ok"] as? Bool == true, "512 levels with the request object")
        let tooDeep = status(nestedArrays: 512) ?? [:]
        #expect(errorCode(tooDeep) == "badJSON")
        #expect(((tooDeep["error"] as? [String: Any])?["message"] as? String)?.contains("512") == true, "the message names the limit")
        #expect(errorCode(status(nestedArrays: 100_000) ?? [:]) == "badJSON")
        #expect(status(nestedArrays: 1)?["ok"] as? Bool == true, "the connection stays open")
    }
}
