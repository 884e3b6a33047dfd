#if canImport(Glibc)
import Glibc
#endif

/// A serial device (or pseudo-terminal) opened for reading NMEA: raw mode, given baud rate, non-blocking.
final class SerialPort {
    enum ReadResult {
        case bytes(Int)
        case wouldBlock
        /// Unplugged or hung up: EOF, EIO or ENXIO. The path may come back.
        case gone(String)
    }

    let descriptor: Int32

    /// Opens and configures `path`; throws a sentence naming the path and the system's reason.
    init(path: String, baudRate: Int) throws(SerialError) {
        guard let speed = SerialPort.speed(baudRate) else {
            throw SerialError("unsupported baud rate \(baudRate); expected one of \(SerialPort.baudRates.map(\.rate))")
        }
        // O_NOCTTY: a GPS must never become the daemon's controlling terminal.
        let fd = Glibc.open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw SerialError("cannot open \(path): \(String(cString: strerror(errno)))") }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw SerialError("\(path) is not a terminal: \(reason)")
        }
        cfmakeraw(&settings)
        cfsetispeed(&settings, speed)
        cfsetospeed(&settings, speed)
        // Ignore modem control lines, so a receiver without DCD still delivers data.
        settings.c_cflag |= tcflag_t(CLOCAL | CREAD)
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(fd)
            throw SerialError("cannot configure \(path): \(reason)")
        }
        descriptor = fd
    }

    deinit {
        Glibc.close(descriptor)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        while true {
            let n = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
            if n > 0 { return .bytes(n) }
            if n == 0 { return .gone("end of file") }
            switch errno {
            case EINTR: continue
            case EAGAIN: return .wouldBlock
            default: return .gone(String(cString: strerror(errno)))
            }
        }
    }

    static let baudRates: [(rate: Int, speed: speed_t)] = [
        (1200, speed_t(B1200)), (2400, speed_t(B2400)), (4800, speed_t(B4800)), (9600, speed_t(B9600)),
        (19200, speed_t(B19200)), (38400, speed_t(B38400)), (57600, speed_t(B57600)), (115200, speed_t(B115200)),
        (230400, speed_t(B230400)), (460800, speed_t(B460800)), (921600, speed_t(B921600)),
    ]

    /// The termios constant for a rate in bits per second, if the tty layer has one.
    static func speed(_ baudRate: Int) -> speed_t? {
        baudRates.first { $0.rate == baudRate }?.speed
    }
}
