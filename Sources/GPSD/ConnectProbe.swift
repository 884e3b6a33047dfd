#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection attempt that a stop request can interrupt. libgps connects blocking: to a host that
/// drops packets, `gps_open` waits until the kernel gives up, about two minutes, and a stop meanwhile
/// reaches nobody. A session first connects here, without blocking, and hangs up; gpsd has then just
/// answered, and `gps_open`'s own connection follows at once.
enum ConnectProbe {
    /// True once some address of host:port accepts a connection; false when `stop` is raised first.
    /// Throws the reason when none does within `timeout` (each address gets its share).
    static func reach(host: String, port: Int, timeout: Duration, stop: WakeSignal) throws(GPSDError) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw GPSDError("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var addresses: [UnsafeMutablePointer<addrinfo>] = []
        var next: UnsafeMutablePointer<addrinfo>? = first
        while let address = next {
            addresses.append(address)
            next = address.pointee.ai_next
        }
        var reason = "no address"
        for (k, address) in addresses.enumerated() {
            let deadline = ContinuousClock.now + timeout / (addresses.count - k)
            switch attempt(address.pointee, until: deadline, stop: stop) {
            case .connected: return true
            case .stopped: return false
            case .failed(let why): reason = why
            }
            if stop.isRaised { return false }
        }
        throw GPSDError("cannot reach \(host):\(port): \(reason)")
    }

    private enum Outcome {
        case connected, stopped
        case failed(String)
    }

    private static func attempt(_ address: addrinfo, until deadline: ContinuousClock.Instant, stop: WakeSignal) -> Outcome {
        let fd = socket(address.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue),
                        address.ai_protocol)
        guard fd >= 0 else { return .failed(String(cString: strerror(errno))) }
        defer { close(fd) }
        if connect(fd, address.ai_addr, address.ai_addrlen) == 0 { return .connected }
        guard errno == EINPROGRESS else { return .failed(String(cString: strerror(errno))) }
        var descriptors = [pollfd(fd: fd, events: Int16(POLLOUT), revents: 0),
                           pollfd(fd: stop.descriptor, events: Int16(POLLIN), revents: 0)]
        while !stop.isRaised {
            let now = ContinuousClock.now
            guard now < deadline else { return .failed("timed out") }
            if poll(&descriptors, 2, stop.pollTimeout(now.duration(to: deadline))) < 0 && errno != EINTR {
                return .failed("poll failed: \(String(cString: strerror(errno)))")
            }
            guard descriptors[0].revents != 0 else { continue }
            var error: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
            return error == 0 ? .connected : .failed(String(cString: strerror(error)))
        }
        return .stopped
    }
}
