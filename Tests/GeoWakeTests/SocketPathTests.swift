#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GeoWake
import Testing

/// Which sockets the library looks at, and what it says when no daemon answers at any of them.
@Suite struct SocketPathTests {
    static func emptyRuntimeDirectory() -> String {
        let path = NSTemporaryDirectory() + "geowake-socketpath-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("With no user socket the system socket is chosen, and both count as tried; GEOWAKE_SOCKET alone is tried alone")
    func resolutionListsThePathsTried() {
        let runtime = Self.emptyRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let resolved = SocketPath.resolution(environment: ["XDG_RUNTIME_DIR": runtime])
        #expect(resolved.path == SocketPath.systemPath)
        #expect(resolved.tried == [runtime + "/geowake/geowaked.sock", SocketPath.systemPath])
        let chosen = SocketPath.resolution(environment: ["GEOWAKE_SOCKET": "/tmp/other.sock", "XDG_RUNTIME_DIR": runtime])
        #expect(chosen.path == "/tmp/other.sock" && chosen.tried == ["/tmp/other.sock"])
    }

    @Test("A real connect to a missing socket becomes noDaemon naming the paths tried and how to start the user daemon")
    func missingSocketIsNoDaemon() async throws {
        let runtime = Self.emptyRuntimeDirectory()
        defer { try? FileManager.default.removeItem(atPath: runtime) }
        let tried = [runtime + "/geowake/geowaked.sock", runtime + "/system.sock"]
        do {
            _ = try await DaemonConnection(path: tried[1], timeout: 1)
            Issue.record("connected to a socket that does not exist")
        } catch let error as GeoWakeError {
            let explained = SocketPath.explain(error, tried: tried)
            #expect(explained == .noDaemon(tried: tried, reason: "No such file or directory"))
            #expect(explained.description.hasPrefix("no geowaked is running: tried \(tried[0]), \(tried[1]) (No such file or directory)"))
            #expect(explained.description.contains("`geowaked --source gpsd://localhost:2947`"))
        }
    }

    @Test("A failure other than no listener (a path too long) stays connectionFailed, naming its one path")
    func otherFailuresAreKept() async throws {
        let long = "/tmp/" + String(repeating: "x", count: 200) + ".sock"
        do {
            _ = try await DaemonConnection(path: long, timeout: 1)
            Issue.record("connected to an impossible path")
        } catch let error as GeoWakeError {
            #expect(SocketPath.explain(error, tried: [long]) == error)
            guard case .connectionFailed(let path, _) = error else { Issue.record("\(error)"); return }
            #expect(path == long)
        }
    }
}
