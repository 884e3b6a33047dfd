#if canImport(Glibc)
import GeoWakeCore
import Glibc
#endif
import CLibGPS

/// One libgps connection to gpsd: the thin adapter between `gps_data_t` and the source's read loop.
/// Not thread-safe; it lives on its worker's thread.
final class GPSDConnection {
    enum Report {
        /// A TPV: a fix, or nil when the receiver has no position.
        case position(Fix?)
        /// gpsd lost a device (unplugged, or its feed closed).
        case deviceRemoved
        /// Any other class (VERSION, DEVICES, SKY...): proof that gpsd is alive.
        case other
    }

    enum ReadResult {
        case report(Report)
        /// No complete line buffered; poll before reading again.
        case needMoreData
        case closed
    }

    private let data: UnsafeMutablePointer<gps_data_t>
    private var isOpen: Bool
    /// From the latest SKY; nil until one arrives, since a TPV carries no satellite count.
    private var satellitesUsed: Int?

    private init(data: UnsafeMutablePointer<gps_data_t>) {
        self.data = data
        isOpen = true
        // Non-blocking, so that gps_read() after a partial line returns instead of waiting in recv()
        // where a stop request could not reach it.
        let flags = fcntl(data.pointee.gps_fd, F_GETFL)
        _ = fcntl(data.pointee.gps_fd, F_SETFL, flags | O_NONBLOCK)
    }

    /// Connects to gpsd; throws the reason as libgps words it (e.g. "can't connect to host/port pair").
    static func open(host: String, port: Int) throws(GPSDError) -> GPSDConnection {
        let data = UnsafeMutablePointer<gps_data_t>.allocate(capacity: 1)
        UnsafeMutableRawPointer(data).initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<gps_data_t>.size)
        guard gps_open(host, String(port), data) == 0 else {
            let reason = String(cString: gps_errstr(errno))
            data.deallocate()
            throw GPSDError(reason)
        }
        return GPSDConnection(data: data)
    }

    deinit {
        close()
        data.deallocate()
    }

    var descriptor: Int32 { data.pointee.gps_fd }

    /// Asks gpsd to stream JSON reports, from all devices or only `device`.
    func watch(device: String?) throws(GPSDError) {
        let status: Int32
        if let device {
            status = device.withCString { path in
                gps_stream(data, UInt32(WATCH_ENABLE | WATCH_JSON | WATCH_DEVICE), UnsafeMutableRawPointer(mutating: path))
            }
        } else {
            status = gps_stream(data, UInt32(WATCH_ENABLE | WATCH_JSON), nil)
        }
        guard status == 0 else { throw GPSDError("cannot send WATCH to gpsd") }
    }

    /// A cheap request whose answer proves the connection is alive. Written directly, as gps_send()
    /// would (it is variadic, so Swift cannot call it).
    func probe() -> Bool {
        let request: StaticString = "?VERSION;"
        return write(descriptor, request.utf8Start, request.utf8CodeUnitCount) == request.utf8CodeUnitCount
    }

    /// Unpacks at most one buffered or newly received line.
    func read() -> ReadResult {
        // Only the class tag is needed; libgps truncates the copy to the buffer.
        var head = [CChar](repeating: 0, count: 24)
        let status = gps_read(data, &head, Int32(head.count))
        if status < 0 { return .closed }
        if status == 0 { return .needMoreData }
        let line = head.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return .report(Self.report(line, unpacked: data.pointee, satellitesUsed: &satellitesUsed))
    }

    /// What the line libgps has just unpacked into `data` says; `line` is its start, enough for the class tag.
    /// `satellitesUsed` carries the latest SKY's count to the TPVs after it.
    static func report(_ line: String, unpacked data: gps_data_t, satellitesUsed: inout Int?) -> Report {
        if line.hasPrefix("{\"class\":\"TPV\"") {
            return .position(Fix(tpv: data.fix, satellites: satellitesUsed))
        }
        if line.hasPrefix("{\"class\":\"DEVICE\"") && data.dev.activated.tv_sec == 0 {
            return .deviceRemoved
        }
        if line.hasPrefix("{\"class\":\"SKY\"") {
            // A SKY with only DOPs (no satellite list, no uSat) leaves 0: unknown, not none, beside a fix.
            let used = Int(data.satellites_used)
            satellitesUsed = used > 0 ? used : nil
        }
        return .other
    }

    /// Ends the watch first, so gpsd releases the device at once rather than when it notices the
    /// closed socket, then closes.
    func close() {
        guard isOpen else { return }
        isOpen = false
        _ = gps_stream(data, UInt32(WATCH_DISABLE), nil)
        _ = gps_close(data)
    }
}
