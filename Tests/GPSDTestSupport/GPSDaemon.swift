#if canImport(Glibc)
import Glibc
#endif

/// A real gpsd with no hardware: its only device is `tcp://127.0.0.1:FEEDPORT`, which it opens when
/// a client watches. Debug level 4 makes it log when it releases a device nobody watches.
public final class GPSDaemon {
    public let port: Int
    public let logPath: String
    private let process: ChildProcess

    public init(feedPort: Int, logPath: String, port requestedPort: Int? = nil) async throws {
        self.logPath = logPath
        // The free port can be taken between the check and gpsd's bind; then gpsd exits and we retry.
        for _ in 0..<5 {
            let port = try requestedPort ?? freePort()
            let process = try ChildProcess(["gpsd", "-N", "-D", "4", "-S", String(port), "tcp://127.0.0.1:\(feedPort)"],
                                           outputPath: logPath)
            if await eventually(within: .seconds(5), { isListening(port: port) || !process.isRunning }),
               process.isRunning {
                self.port = port
                self.process = process
                return
            }
            process.kill(signal: SIGKILL)
        }
        throw TestFailure("gpsd did not start listening; see \(logPath)")
    }

    deinit { process.kill(signal: SIGKILL) }

    public var isRunning: Bool { process.isRunning }

    public func kill(signal: Int32 = SIGKILL) {
        process.kill(signal: signal)
    }

    /// gpsd's log so far.
    public func log() -> String {
        (try? readFile(logPath)).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }
}
