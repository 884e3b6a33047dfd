import Foundation
import Testing
import TestSupport

/// One uid can neither see nor change another uid's clients: `geowake` run as nobody (uid 65534) through `setpriv`
/// against a daemon where root has a client. Needs root to switch uid.
@Suite(.serialized) struct IsolationTests {
    /// `EXECUTABLE ARGUMENTS` as uid/gid 65534 with no supplementary groups; its exit status and its standard output
    /// and error together.
    static func asNobody(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws
        -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", executable] + arguments
        if let environment { process.environment = environment }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    /// `geowake ARGUMENTS --socket …` as nobody.
    static func asNobody(_ daemon: DaemonProcess, _ arguments: [String]) throws -> (status: Int32, output: String) {
        try asNobody(builtExecutable("geowake"), arguments + ["--socket", daemon.socket])
    }

    @Test(.enabled(if: getuid() == 0, "switching to a second uid needs root; run as root to check isolation"))
    func anotherUIDCanNeitherListNorReadNorDisableAClientOfRoot() throws {
        let daemon = DaemonProcess()
        try daemon.start(speed: 1)
        let owner = try RawClient.registered(daemon, as: "org.example.private")
        _ = try owner.request("monitor", ["features": ProtocolTests.regions])
        chmod(daemon.directory, 0o755)

        let clients = try Self.asNobody(daemon, ["clients"])
        #expect(clients.status == 0, "\(clients.output)")
        #expect(!clients.output.contains("org.example.private"))
        let subscriptions = try Self.asNobody(daemon, ["subscriptions", "org.example.private"])
        #expect(subscriptions.status != 0)
        #expect(subscriptions.output.contains("unknownClient"), "\(subscriptions.output)")
        let disable = try Self.asNobody(daemon, ["disable", "org.example.private"])
        #expect(disable.status != 0)
        #expect(disable.output.contains("unknownClient"), "\(disable.output)")

        let mine = try owner.request("list")
        #expect(((mine["result"] as? [String: Any])?["regions"] as? [Any])?.count == 1000)
        let overview = try owner.request("clients")
        let entry = ((overview["result"] as? [String: Any])?["clients"] as? [[String: Any]])?.first
        #expect(entry?["disabled"] as? Bool == false)
    }

    /// `geowake-test-subscriber` as nobody, asked to monitor `file` and leave after its first event.
    static func subscribeAsNobody(_ daemon: DaemonProcess, regions file: String) throws -> (status: Int32, output: String) {
        let output = daemon.directory + "/nobody.jsonl"
        _ = FileManager.default.createFile(atPath: output, contents: nil)
        chown(output, 65534, 65534)
        return try asNobody(SubscriberProcess.binary, ["org.example.nobody", output, "--regions", file, "--exit-after", "1"],
                            environment: ["GEOWAKE_SOCKET": daemon.socket])
    }

    @Test(.enabled(if: getuid() == 0, "reading a file as another uid needs a root daemon; run as root to check it"))
    func aRootDaemonReadsARegionFileWithTheClientsPermissionsNotItsOwn() throws {
        let daemon = DaemonProcess()
        try daemon.start(speed: 0)
        chmod(daemon.directory, 0o755)
        let regions = try String(contentsOfFile: DaemonProcess.root + "/regions/berlin-1k.geojson", encoding: .utf8)
        let rootsOnly = daemon.directory + "/roots-only.geojson"
        try regions.write(toFile: rootsOnly, atomically: false, encoding: .utf8)
        chmod(rootsOnly, 0o600)
        let refused = try Self.subscribeAsNobody(daemon, regions: rootsOnly)
        #expect(refused.status != 0)
        #expect(refused.output.contains("fileUnreadable"), "\(refused.output)")

        let nobodys = daemon.directory + "/nobodys.geojson"
        try regions.write(toFile: nobodys, atomically: false, encoding: .utf8)
        chmod(nobodys, 0o600)
        chown(nobodys, 65534, 65534)
        let accepted = try Self.subscribeAsNobody(daemon, regions: nobodys)
        #expect(accepted.status == 0, "\(accepted.output)")
        #expect(SubscriberProcess.handled(daemon.directory + "/nobody.jsonl").first?["event"] as? String == "enter")
    }
}
