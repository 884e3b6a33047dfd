import Foundation
import GPSDTestSupport

/// A program started as a user starts it in a terminal window: on a pseudo-terminal of its own, which is its
/// controlling terminal (so a typed Ctrl-C, byte 0x03, interrupts it through the line discipline), in its own
/// session, with exactly the environment and working directory given. It inherits no descriptor of the test's (the
/// test runner's output pipes stay the runner's alone), and every wait is bounded. Killed, with its process group,
/// when the value goes away.
final class TerminalProcess {
    let pid: pid_t
    private var master: Int32
    private var output: [UInt8] = []
    private var waitStatus: Int32?

    init(_ arguments: [String], environment: [String: String], directory: String) throws {
        var master: Int32 = -1, slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else { throw TestFailure("openpty: \(String(cString: strerror(errno)))") }
        let slavePath = String(cString: ttyname(slave))
        // The child opens the slave by path after setsid, which makes it its controlling terminal; the parent keeps
        // only the master, so reading it ends (EIO) once every process on the terminal has gone.
        close(slave)
        _ = fcntl(master, F_SETFD, FD_CLOEXEC)
        self.master = master

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The test runner may block or ignore signals; a terminal program starts with the defaults.
        var defaults = sigset_t(), mask = sigset_t()
        sigemptyset(&mask)
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(Self.setsid | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        guard let addchdir = Self.addchdir, let addclosefrom = Self.addclosefrom else {
            close(master)
            throw TestFailure("this glibc lacks posix_spawn_file_actions_addchdir_np or _addclosefrom_np (2.34 has both)")
        }
        _ = addchdir(&actions, directory)
        posix_spawn_file_actions_addopen(&actions, 0, slavePath, O_RDWR, 0)
        posix_spawn_file_actions_adddup2(&actions, 0, 1)
        posix_spawn_file_actions_adddup2(&actions, 0, 2)
        _ = addclosefrom(&actions, 3)
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        // A relative program path is found from `directory`: the file actions (chdir) run before the exec.
        let status = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard status == 0 else {
            close(master)
            throw TestFailure("cannot start \(arguments[0]): \(String(cString: strerror(status)))")
        }
        self.pid = pid
    }

    // glibc's GNU extensions, which the Glibc module does not import (it is built without _GNU_SOURCE).
    private static let setsid: Int32 = 0x80   // POSIX_SPAWN_SETSID
    private typealias AddChdir = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32
    private typealias AddClosefrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private static let addchdir = dlsym(nil, "posix_spawn_file_actions_addchdir_np").map { unsafeBitCast($0, to: AddChdir.self) }
    private static let addclosefrom = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np").map { unsafeBitCast($0, to: AddClosefrom.self) }

    deinit {
        if waitStatus == nil {
            kill(-pid, SIGKILL)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(master)
    }

    /// Every complete line written to the terminal so far, without the terminal's carriage returns.
    var lines: [String] {
        let text = String(decoding: output, as: UTF8.self).replacingOccurrences(of: "\r", with: "")
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    enum ReadResult { case data, nothing, closed }

    /// Reads what the program wrote within `seconds`; `closed` once every process let go of the terminal.
    @discardableResult
    func read(for seconds: Double) -> ReadResult {
        var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        guard poll(&entry, 1, Int32(seconds * 1000)) > 0 else { return .nothing }
        var chunk = [UInt8](repeating: 0, count: 4096)
        let n = chunk.withUnsafeMutableBytes { Glibc.read(master, $0.baseAddress, $0.count) }
        if n > 0 { output += chunk[0..<n] }
        return n > 0 ? .data : n < 0 && errno == EINTR ? .nothing : .closed
    }

    /// Waits up to `seconds` for a line that satisfies `predicate`, reading `others` too so their terminals never
    /// fill; returns the line, nil on timeout or when the terminal closed first.
    func waitForLine(_ seconds: Double, draining others: [TerminalProcess] = [],
                     _ predicate: (String) -> Bool) -> String? {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if let line = lines.first(where: predicate) { return line }
            for other in others { other.read(for: 0) }
            if read(for: 0.1) == .closed { return lines.first(where: predicate) }
        }
        return lines.first(where: predicate)
    }

    /// Types Ctrl-C.
    func typeControlC() {
        var byte: UInt8 = 3
        _ = write(master, &byte, 1)
    }

    /// The raw wait status once the program has ended, waiting up to `seconds` (reading its output meanwhile); nil
    /// while it still runs.
    func waitForExit(_ seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while waitStatus == nil {
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) == pid { waitStatus = status; break }
            guard Date() < deadline else { break }
            read(for: 0.05)
        }
        while waitStatus != nil, read(for: 0) == .data {}
        return waitStatus
    }
}
