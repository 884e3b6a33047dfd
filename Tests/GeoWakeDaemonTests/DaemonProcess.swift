import Foundation
import Testing
import TestSupport

/// A real `geowaked` process on a temporary socket and store.
final class DaemonProcess {
    static let root = packageRoot
    static let binary = builtExecutable("geowaked")

    let directory: String
    var socket: String { directory + "/geowaked.sock" }
    var log: String { directory + "/geowaked.log" }
    private var process: Process?

    init() {
        directory = NSTemporaryDirectory() + "geowaked-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    }

    deinit {
        stop(signal: SIGKILL)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// `trace` is relative to the package root unless absolute; `options` go to geowaked as they are.
    func start(trace: String = "traces/berlin-drive.nmea", speed: Double = 0, options: [String] = []) throws {
        try start(source: "trace:" + (trace.hasPrefix("/") ? trace : Self.root + "/" + trace), options: ["--speed", "\(speed)"] + options)
    }

    /// Starts geowaked on `source` (gpsd://…, a device, trace:…; nil for none); its log goes to `log` in the directory.
    func start(source: String?, options: [String]) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = (source.map { ["--source", $0] } ?? []) + ["--socket", socket, "--state", directory + "/geowake.sqlite"] + options
        try Data().write(to: URL(fileURLWithPath: log))
        let logFile = FileHandle(forWritingAtPath: log)
        logFile?.seekToEndOfFile()
        process.standardError = logFile
        try process.run()
        self.process = process
        for _ in 0..<200 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
        usleep(20_000)
    }

    func stop(signal: Int32) {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        self.process = nil
        unlink(socket)
    }

    /// Sends `signal` and waits up to `seconds`; the exit status when it exited by itself, nil otherwise
    /// (killed by a signal, or still running, and then killed). Leaves the socket file as the daemon left it.
    func exitStatus(after signal: Int32, within seconds: Double) -> Int32? {
        guard let process, process.isRunning else { return nil }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        self.process = nil
        guard !process.isRunning else {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            return nil
        }
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    var isRunning: Bool { process?.isRunning ?? false }

    /// Sends `signal` (SIGSTOP, SIGCONT) and leaves the process as it is.
    func send(_ signal: Int32) {
        if let process { kill(process.processIdentifier, signal) }
    }

    /// The daemon's resident memory in MiB, from /proc.
    var residentMiB: Double? {
        guard let pid = process?.processIdentifier,
              let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
              let kib = Double(line.split(separator: " ")[1]) else { return nil }
        return kib / 1024
    }
}

/// A raw protocol client: JSON lines over a Unix socket, nothing from the GeoWake library.
final class RawClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var nextID = 100

    init(_ path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try #require(connected == 0, "connect to \(path)")
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    func sendRaw(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// The next line as an object, nil at end of stream or timeout.
    func receive() -> [String: Any]? {
        receiveLine().flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    /// The next line as the daemon wrote it, without its newline; nil at end of stream or timeout.
    func receiveLine() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeFirst(newline + 1)
                return String(decoding: line, as: UTF8.self)
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return nil }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// Sends a request and returns its reply; events that arrive first are collected into `events`.
    func request(_ op: String, _ fields: [String: Any] = [:]) throws -> [String: Any] {
        nextID += 1
        var object = fields
        object["op"] = op
        object["id"] = nextID
        sendRaw(Array(try JSONSerialization.data(withJSONObject: object)) + [10])
        while let message = receive() {
            if message["type"] as? String == "event" { events.append(message); continue }
            return message
        }
        throw ProtocolTestError("no reply to \(op)")
    }

    var events: [[String: Any]] = []

    /// Reads events until `count` in all have arrived (or the stream stalls).
    func collectEvents(until count: Int) {
        while events.count < count, let message = receive() {
            if message["type"] as? String == "event" { events.append(message) }
        }
    }

    /// A client that said hello and registered as `client` on the daemon's socket.
    static func registered(_ daemon: DaemonProcess, as client: String) throws -> RawClient {
        let raw = try RawClient(daemon.socket)
        try raw.hello()
        let reply = try raw.request("register", ["client": client])
        #expect(reply["ok"] as? Bool == true)
        return raw
    }

    func hello() throws {
        let greeting = try #require(receive())
        #expect(greeting["type"] as? String == "hello")
        #expect(greeting["protocol"] as? Int == 1)
        let reply = try request("hello", ["protocol": 1])
        #expect(reply["ok"] as? Bool == true)
    }
}

struct ProtocolTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func errorCode(_ reply: [String: Any]) -> String? {
    (reply["error"] as? [String: Any])?["code"] as? String
}
