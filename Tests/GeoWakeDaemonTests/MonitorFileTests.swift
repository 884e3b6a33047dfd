import Foundation
import Testing

/// A `monitor` of a file takes what `geowake regions check` accepts: a lone Feature, and gzip-compressed files.
@Suite(.serialized) struct MonitorFileTests {
    static func write(_ object: Any, to path: String) throws {
        #expect(FileManager.default.createFile(atPath: path, contents: try JSONSerialization.data(withJSONObject: object)))
    }

    @Test func aLoneFeatureFileAndAGzipCompressedCollectionAreMonitored() throws {
        let daemon = DaemonProcess()
        try daemon.start(source: nil, options: [])
        let client = try RawClient.registered(daemon, as: "org.example.files")
        let lone = daemon.directory + "/lone.geojson"
        try Self.write(StraightLineTrace.circle("lone"), to: lone)
        let collection = daemon.directory + "/two.geojson"
        try Self.write(["type": "FeatureCollection", "features": [StraightLineTrace.circle("a"), StraightLineTrace.circle("b")]],
                       to: collection)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = [collection]
        try gzip.run()
        gzip.waitUntilExit()

        for (path, count) in [(lone, 1), (collection + ".gz", 2)] {
            let reply = try client.request("monitor", ["file": path])
            #expect((reply["result"] as? [String: Any])?["added"] as? Int == count, "\(path): \(reply)")
        }
        let notGeoJSON = daemon.directory + "/list.json"
        try Self.write([1, 2, 3], to: notGeoJSON)
        #expect(errorCode(try client.request("monitor", ["file": notGeoJSON])) == "badGeoJSON")
        let ids = ((try client.request("list")["result"] as? [String: Any])?["regions"] as? [[String: Any]] ?? []).map { $0["region"] as? String }
        #expect(ids == ["a", "b", "lone"])
    }
}
