#if canImport(Glibc)
import Glibc
#endif

/// A loopback TCP socket bound to a port the kernel chose; listening when `backlog` is given.
public func boundLoopbackSocket(backlog: Int32? = nil) throws -> (descriptor: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    var on: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
            bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
        }
    }
    guard bound, backlog.map({ listen(fd, $0) == 0 }) ?? true else {
        close(fd)
        throw TestFailure("cannot bind a loopback port: \(String(cString: strerror(errno)))")
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}

/// A port that was free a moment ago, for programs (gpsd) that insist on being told one.
public func freePort() throws -> Int {
    let (fd, port) = try boundLoopbackSocket()
    close(fd)
    return port
}

/// Whether something accepts TCP connections on the loopback port.
public func isListening(port: Int) -> Bool {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    defer { close(fd) }
    return connectLoopback(fd, port: port)
}

/// Connects the socket to the loopback port, blocking; whether it succeeded.
public func connectLoopback(_ fd: Int32, port: Int) -> Bool {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = UInt16(port).bigEndian
    return withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
        }
    }
}

/// Polls `condition` every 20 ms until it holds or `timeout` passes; returns whether it held.
public func eventually(within timeout: Duration, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
