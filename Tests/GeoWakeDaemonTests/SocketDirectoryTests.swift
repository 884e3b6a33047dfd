import Foundation
import Testing
import TestSupport

/// The directory geowaked makes for its socket: reachable by every user in system mode, private in user mode.
@Suite struct SocketDirectoryTests {
    /// Starts geowaked without a source on a socket and store under a fresh directory, waits for the socket, and
    /// returns the daemon's process and the socket's path.
    static func start(system: Bool, in directory: String) throws -> (Process, String) {
        let socket = directory + "/run/geowake/geowaked.sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: DaemonProcess.binary)
        process.arguments = (system ? ["--system"] : []) + ["--socket", socket, "--state", directory + "/lib/geowake/geowake.sqlite"]
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<500 where access(socket, F_OK) != 0 { usleep(10_000) }
        return (process, socket)
    }

    static func mode(_ path: String) -> mode_t {
        var status = stat()
        return stat(path, &status) == 0 ? status.st_mode & 0o7777 : 0
    }

    static func freshDirectory() -> String {
        let path = NSTemporaryDirectory() + "geowaked-dirs-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        chmod(path, 0o755)
        return path
    }

    @Test("--system makes the socket's directory 0755, so another user reaches the 0666 socket; the store's stays 0700",
          .enabled(if: getuid() == 0, "the system socket is 0666 only for a daemon running as root"))
    func systemModeSocketIsReachableByOthers() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (daemon, socket) = try Self.start(system: true, in: directory)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        #expect(Self.mode(directory + "/run/geowake") == 0o755)
        #expect(Self.mode(directory + "/run") == 0o755)
        #expect(Self.mode(socket) & 0o777 == 0o666)
        #expect(Self.mode(directory + "/lib/geowake") == 0o700)
        let status = try IsolationTests.asNobody(builtExecutable("geowake"), ["status", "--socket", socket])
        #expect(status.status == 0, "\(status.output)")
        #expect(status.output.contains(#""type":"source""#), "\(status.output)")
    }

    @Test("In user mode the socket's directory is the user's alone, 0700")
    func userModeSocketDirectoryIsPrivate() throws {
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (daemon, socket) = try Self.start(system: false, in: directory)
        defer { daemon.terminate(); daemon.waitUntilExit() }
        #expect(access(socket, F_OK) == 0)
        #expect(Self.mode(directory + "/run/geowake") == 0o700)
        #expect(Self.mode(directory + "/lib/geowake") == 0o700)
    }
}
