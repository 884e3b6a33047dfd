import Foundation
import Testing

/// System mode: the daemon runs as root and launches each client as the account that registered it.
@Suite(.serialized, .enabled(if: getuid() == 0, "needs root")) struct DaemonPrivilegeTests {
    /// Registered by uid 65534 with gid 65534 and no groups (setpriv): the relaunched child reports those ids
    /// from its own /proc/self/status, and none of root's.
    @Test func aRelaunchForANonRootRegistrationRunsWithThatUidGidAndGroups() throws {
        let daemon = DaemonProcess()
        let trace = daemon.directory + "/trace.json", output = daemon.directory + "/out.jsonl"
        Wake.steadyTrace(trace, step: 0.5, until: 6)
        _ = FileManager.default.createFile(atPath: output, contents: nil, attributes: [.posixPermissions: 0o666])
        try daemon.start(trace: trace, speed: 1)
        defer { Wake.killAll([output]) }
        try Wake.startByHand(daemon, "org.example.nobody", output: output, ["--relaunch", "--standard", "--register-only"],
                             prefix: ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]).waitUntilExit()
        let byHand = try #require(Wake.started(output).first, "the subscriber did not start as uid 65534")
        #expect(byHand["Uid"] as? String == "65534 65534 65534 65534")
        #expect(Wake.eventually { Wake.launched(output).count == 1 })
        let launched = try #require(Wake.launched(output).first)
        #expect(launched["Uid"] as? String == "65534 65534 65534 65534")
        #expect(launched["Gid"] as? String == "65534 65534 65534 65534")
        #expect(launched["Groups"] as? String == "65534")
    }

    @Test func registrationRefusesLaunchCommandsOthersCouldReplace() throws {
        let daemon = DaemonProcess()
        try daemon.start()
        let open = daemon.directory + "/open"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o777])
        chmod(open, 0o777)
        let inOpenDirectory = open + "/tool", writable = daemon.directory + "/writable", foreign = daemon.directory + "/foreign"
        for path in [inOpenDirectory, writable, foreign] {
            try FileManager.default.copyItem(atPath: "/bin/true", toPath: path)
            chmod(path, 0o755)
        }
        chmod(writable, 0o777)
        chown(foreign, 65534, 65534)
        let client = try RawClient(daemon.socket)
        try client.hello()
        for (path, message) in [(inOpenDirectory, "writable by group or others"), (writable, "writable by group or others"),
                                (foreign, "owned by uid 65534"), (daemon.directory + "/missing", "does not exist")] {
            let reply = try client.request("register", ["client": "org.example.unsafe", "launch": [path]])
            #expect(errorCode(reply) == "unsafeLaunch", "\(path)")
            let text = (reply["error"] as? [String: Any])?["message"] as? String ?? ""
            #expect(text.contains(message), "\(text)")
        }
        let safe = try client.request("register", ["client": "org.example.unsafe", "launch": ["/bin/true"]])
        #expect(safe["ok"] as? Bool == true)
    }
}
