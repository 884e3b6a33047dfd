import Glibc

/// Starts client processes with fork and exec: the child leads a new session and process group, becomes
/// the registering account (system mode), reads /dev/null, writes to its log file, inherits no other
/// descriptor, signal mask or ignored SIGPIPE, and execs the command with `LaunchRequest.environment()`.
///
/// Everything the child needs is prepared before the fork; between fork and exec the child makes only
/// async-signal-safe system calls (the daemon is multithreaded, so allocating there could deadlock).
/// A failure in the child reaches the parent through a close-on-exec pipe, so `spawn` either returns a
/// process that is running the command or throws.
public enum Launcher {
    public static func spawn(_ request: LaunchRequest) throws(LaunchError) -> ProcessIdentity {
        let log = open(request.logPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o640)
        guard log >= 0 else { throw .logFile(path: request.logPath, errno: errno) }
        defer { close(log) }
        let devNull = open("/dev/null", O_RDONLY | O_CLOEXEC)
        guard devNull >= 0 else { throw .logFile(path: "/dev/null", errno: errno) }
        defer { close(devNull) }
        var report: [Int32] = [0, 0]
        guard let pipe2 = Self.pipe2, pipe2(&report, O_CLOEXEC) == 0 else { throw .fork(errno: errno) }

        let arguments = CStrings(request.command.arguments)
        let environment = CStrings(request.environment())
        defer { arguments.free(); environment.free() }
        let groups = request.account?.groups ?? []
        var emptyMask = sigset_t()
        sigemptyset(&emptyMask)
        var defaultAction = sigaction()
        let child = ChildSetup(devNull: devNull, log: log, report: report[1], account: request.account,
                               closeRange: closeRange)

        let pid = groups.withUnsafeBufferPointer { groups in
            let pid = fork()
            if pid == 0 {
                child.run(path: arguments.pointers[0]!, argv: arguments.pointers, envp: environment.pointers,
                          groups: groups, mask: &emptyMask, defaultAction: &defaultAction)
            }
            return pid
        }
        let forkErrno = errno
        close(report[1])
        defer { close(report[0]) }
        guard pid > 0 else { throw .fork(errno: forkErrno) }

        var failure: (Int32, Int32) = (0, 0)
        let count = withUnsafeMutableBytes(of: &failure) { bytes in
            var count = 0
            repeat { count = read(report[0], bytes.baseAddress, bytes.count) } while count < 0 && errno == EINTR
            return count
        }
        if count == MemoryLayout<(Int32, Int32)>.size {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            throw .child(step: ChildSetup.steps[Int(failure.0)], errno: failure.1)
        }
        // Not reaped yet, so /proc/PID exists even if the command has already ended.
        return ProcessIdentity.of(pid) ?? ProcessIdentity(pid: pid, startTime: 0)
    }

    private typealias Pipe2 = @convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32

    /// pipe2 (a _GNU_SOURCE call Swift does not import) makes both ends close-on-exec atomically, so a
    /// process another thread spawns meanwhile cannot inherit the report pipe and hold it open.
    private static let pipe2: Pipe2? = dlsym(nil, "pipe2").map { unsafeBitCast($0, to: Pipe2.self) }

    private typealias CloseRange = @convention(c) (UInt32, UInt32, Int32) -> Int32

    /// glibc 2.34's close_range, looked up at run time because Swift does not import it.
    private static let closeRange: CloseRange? = dlsym(nil, "close_range").map {
        unsafeBitCast($0, to: CloseRange.self)
    }

    /// The child's half, between fork and exec; only raw system calls on memory prepared by the parent.
    private struct ChildSetup {
        static let steps = ["setsid", "setgroups", "setgid", "setuid", "redirect", "chdir", "exec"]
        var devNull: Int32
        var log: Int32
        var report: Int32
        var account: LaunchAccount?
        var closeRange: CloseRange?

        func run(path: UnsafeMutablePointer<CChar>, argv: [UnsafeMutablePointer<CChar>?],
                 envp: [UnsafeMutablePointer<CChar>?], groups: UnsafeBufferPointer<gid_t>,
                 mask: UnsafeMutablePointer<sigset_t>, defaultAction: UnsafeMutablePointer<sigaction>) -> Never {
            guard setsid() >= 0 else { fail(0) }
            // Groups and gid must change while still root; once the uid is dropped they cannot.
            if let account {
                guard setgroups(groups.count, groups.baseAddress) == 0 else { fail(1) }
                guard setgid(account.gid) == 0 else { fail(2) }
                guard setuid(account.uid) == 0 else { fail(3) }
            }
            guard dup2(devNull, 0) == 0, dup2(log, 1) == 1, dup2(log, 2) == 2 else { fail(4) }
            var reportFD = report
            if report != 3 {
                guard dup2(report, 3) == 3, fcntl(3, F_SETFD, FD_CLOEXEC) == 0 else { fail(4) }
                reportFD = 3
            }
            if let closeRange {
                _ = closeRange(4, UInt32.max, 0)
            } else {
                for fd in Int32(4)..<Int32(65_536) { close(fd) }
            }
            sigaction(SIGPIPE, defaultAction, nil)
            sigprocmask(SIG_SETMASK, mask, nil)
            guard chdir("/") == 0 else { fail(5, to: reportFD) }
            argv.withUnsafeBufferPointer { argv in
                envp.withUnsafeBufferPointer { envp in
                    _ = execve(path, argv.baseAddress!, envp.baseAddress!)
                }
            }
            fail(6, to: reportFD)
        }

        func fail(_ step: Int32, to fd: Int32? = nil) -> Never {
            var failure = (step, errno)
            _ = withUnsafeBytes(of: &failure) { write(fd ?? report, $0.baseAddress, $0.count) }
            _exit(127)
        }
    }
}

/// NUL-terminated copies of strings with a trailing nil, as execve wants them, made before the fork.
private struct CStrings {
    let pointers: [UnsafeMutablePointer<CChar>?]

    init(_ strings: [String]) {
        pointers = strings.map { strdup($0) } + [nil]
    }

    func free() {
        for pointer in pointers { Glibc.free(pointer) }
    }
}
