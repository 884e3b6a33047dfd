#if canImport(Glibc)
import Glibc
#endif

/// A pty pair standing in for a USB GPS: the test writes NMEA into the master, the source opens the
/// slave by path. Closing the master is unplugging the device.
public final class PseudoTerminal {
    public private(set) var master: Int32
    public let slavePath: String

    public init() throws {
        var master: Int32 = -1
        var slave: Int32 = -1
        guard openpty(&master, &slave, nil, nil, nil) == 0 else {
            throw TestFailure("openpty failed: \(String(cString: strerror(errno)))")
        }
        // Raw before anything is written, so no echo or CR translation happens before the source opens it.
        var settings = termios()
        tcgetattr(slave, &settings)
        cfmakeraw(&settings)
        tcsetattr(slave, TCSANOW, &settings)
        slavePath = String(cString: ttyname(slave))
        // Only the source holds the slave open, so the master sees a hangup exactly when the source lets go.
        close(slave)
        self.master = master
    }

    deinit { unplug() }

    public func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(master, $0.baseAddress, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                throw TestFailure("write to pty failed: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// Whether some process has the slave open (the master sees no hangup).
    public var isSlaveOpen: Bool {
        var entry = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
        _ = poll(&entry, 1, 0)
        return entry.revents & Int16(POLLHUP) == 0
    }

    public func unplug() {
        guard master >= 0 else { return }
        close(master)
        master = -1
    }

    /// Points `link` at this pty's slave, replacing any previous target in one step.
    public func link(at link: String) throws {
        let temporary = link + ".new"
        unlink(temporary)
        guard symlink(slavePath, temporary) == 0, rename(temporary, link) == 0 else {
            throw TestFailure("cannot link \(link) to \(slavePath): \(String(cString: strerror(errno)))")
        }
    }
}
