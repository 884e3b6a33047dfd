import Glibc
import ProcessLifecycle
import GeoWakeProtocol

/// A fresh private directory under /tmp for one test, removed by `remove()`.
struct Scratch {
    let path: String

    init() {
        var template = Array("/tmp/geowake-launch-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    func file(_ name: String, _ contents: String, mode: mode_t = 0o755) -> String {
        let file = "\(path)/\(name)"
        let fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        _ = contents.withCString { write(fd, $0, strlen($0)) }
        close(fd)
        chmod(file, mode)
        return file
    }

    func read(_ name: String) -> String { readFile("\(path)/\(name)") }

    func remove() { _ = system("rm -rf '\(path)'") }
}

func readFile(_ path: String) -> String {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = Glibc.read(fd, &buffer, buffer.count)
        if count <= 0 { break }
        bytes += buffer[..<count]
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Polls `condition` every 10 ms for at most `seconds`; every wait in these tests is bounded.
func eventually(within seconds: Double = 5, _ condition: () -> Bool) -> Bool {
    let tries = Int(seconds * 100)
    for _ in 0..<tries {
        if condition() { return true }
        usleep(10_000)
    }
    return condition()
}

/// Reaps `process`, waiting at most 5 s.
func waitForExit(_ process: ProcessIdentity) -> ProcessExit? {
    var exit: ProcessExit?
    _ = eventually { exit = process.reap(); return exit != nil }
    return exit
}

/// Fields 5 (process group) and 6 (session) of /proc/PID/stat.
func groupAndSession(_ pid: pid_t) -> (pgrp: Int32, session: Int32)? {
    let stat = readFile("/proc/\(pid)/stat")
    guard let close = stat.lastIndex(of: ")") else { return nil }
    let fields = stat[stat.index(after: close)...].split(separator: " ")
    guard fields.count > 3, let pgrp = Int32(fields[2]), let session = Int32(fields[3]) else { return nil }
    return (pgrp, session)
}

/// A `Key:` line of /proc/PID/status with its tabs collapsed to single spaces.
func statusLine(_ pid: pid_t, _ key: String) -> String? {
    readFile("/proc/\(pid)/status").split(separator: "\n").first { $0.hasPrefix(key + ":") }
        .map { $0.dropFirst(key.count + 1).split(whereSeparator: { $0 == "\t" || $0 == " " }).joined(separator: " ") }
}

func request(_ arguments: [String], in scratch: Scratch, reason: LaunchReason? = .region,
             account: LaunchAccount? = nil) -> LaunchRequest {
    LaunchRequest(command: LaunchCommand(arguments), reason: reason, socketPath: "\(scratch.path)/geowake.sock",
                  logPath: "\(scratch.path)/client.log", account: account)
}
