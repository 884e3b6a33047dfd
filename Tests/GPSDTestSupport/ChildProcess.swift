#if canImport(Glibc)
import Glibc
#endif

/// A program the tests start; killed when the value goes away, so a failing test leaves nothing behind.
public final class ChildProcess: @unchecked Sendable {
    public let pid: pid_t
    private var reaped = false

    /// Starts `arguments[0]` (looked up in PATH) with stdout appended to `outputPath`, and stderr
    /// to `errorPath` or the same file.
    public init(_ arguments: [String], outputPath: String, errorPath: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        if let errorPath {
            posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        } else {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
        guard status == 0 else { throw TestFailure("cannot start \(arguments[0]): \(String(cString: strerror(status)))") }
        self.pid = pid
    }

    deinit { kill(signal: SIGKILL) }

    public var isRunning: Bool {
        guard !reaped else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { reaped = true }
        return !reaped
    }

    /// Sends `signal` and waits for the process to end.
    public func kill(signal: Int32 = SIGTERM) {
        guard !reaped else { return }
        _ = Glibc.kill(pid, signal)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
        reaped = true
    }

    /// Sends `signal` and returns the exit status; see `exitStatus(within:)`.
    public func interrupt(_ signal: Int32, timeout: Duration) async -> Int32? {
        guard !reaped else { return nil }
        _ = Glibc.kill(pid, signal)
        return await exitStatus(within: timeout)
    }

    /// The exit status, or nil when the process did not exit within `timeout` (it is then killed)
    /// or died of a signal.
    public func exitStatus(within timeout: Duration) async -> Int32? {
        guard !reaped else { return nil }
        let deadline = ContinuousClock.now + timeout
        var status: Int32 = 0
        while ContinuousClock.now < deadline {
            if waitpid(pid, &status, WNOHANG) == pid {
                reaped = true
                // WIFEXITED / WEXITSTATUS, which Swift does not import.
                return status & 0x7f == 0 ? (status >> 8) & 0xff : nil
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        kill(signal: SIGKILL)
        return nil
    }
}

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
