#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import GPSD
import JSONLines

/// `geowake fixes gpsd://HOST:PORT` and `geowake fixes /dev/ttyXXX --baud N`: live fixes as JSON lines,
/// each written as it arrives, until SIGINT or SIGTERM; source state changes go to standard error.
enum LiveFixes {
    enum Source {
        case gpsd(GPSDSource.Configuration)
        case serial(SerialNMEASource.Configuration)
    }

    /// The live source that a `fixes` argument names, or nil for a trace file (or `-`).
    /// A tty is a character device that is a terminal, or any path given with `--baud`; another device
    /// (`/dev/null`, a FIFO-like device) is read as a file.
    static func source(_ argument: String, baudRate: Int?) throws -> Source? {
        if argument.hasPrefix("gpsd://") {
            guard baudRate == nil else { throw CommandError("--baud applies to a serial device, not to \(argument)") }
            do {
                return .gpsd(try GPSDSource.Configuration(url: argument))
            } catch {
                throw CommandError(error.description)
            }
        }
        var status = stat()
        let isCharacterDevice = argument != "-" && stat(argument, &status) == 0 && status.st_mode & S_IFMT == S_IFCHR
        guard baudRate != nil || (isCharacterDevice && isTerminal(argument)) else { return nil }
        // 4800 is NMEA 0183's own rate; USB receivers ignore the setting.
        return .serial(SerialNMEASource.Configuration(path: argument, baudRate: baudRate ?? 4800))
    }

    /// Opened without waiting for a modem's carrier and without becoming the controlling terminal.
    private static func isTerminal(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard fd >= 0 else { return true }   // let the serial source report why it cannot be opened
        defer { close(fd) }
        return isatty(fd) == 1
    }

    static func run(_ source: Source) throws {
        let idle = DispatchSemaphore(value: 0)
        let label: String
        let report: @Sendable (String, SourceState) -> Void = { label, state in
            let line = Array("geowake fixes: \(label): \(state)\n".utf8)
            _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
            if state == .idle { idle.signal() }
        }
        let fixes: FixStream
        switch source {
        case .gpsd(let configuration):
            label = "gpsd \(configuration.host):\(configuration.port)" + (configuration.device.map { " \($0)" } ?? "")
            fixes = GPSDSource(configuration) { report(label, $0) }.fixes()
        case .serial(let configuration):
            label = "\(configuration.path) at \(configuration.baudRate) baud"
            do {
                fixes = try SerialNMEASource(configuration) { report(label, $0) }.fixes()
            } catch {
                throw CommandError(error.description)
            }
        }

        let finished = DispatchSemaphore(value: 0)
        let consumer = Task {
            var output = StandardOutput()
            for await fix in fixes {
                output.writer.fixLine(fix)
                // A live consumer wants each fix now, not when a buffer fills.
                try? output.flush()
            }
            finished.signal()
        }
        // Handled on a queue rather than in a signal handler, so stopping can end the watch properly.
        let signals = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { consumer.cancel() }
            source.resume()
            return source
        }
        finished.wait()
        signals.forEach { $0.cancel() }
        // Let the source end its watch (gpsd releases the device) or close the tty before exiting.
        _ = idle.wait(timeout: .now() + .seconds(2))
    }
}
