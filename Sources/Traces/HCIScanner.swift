#if canImport(Glibc)
import Glibc
#endif
import GeoWakeCore

/// Scans live through a raw HCI socket (AF_BLUETOOTH, BTPROTO_HCI) and hands over every LE advertising report.
///
/// A raw socket rather than BlueZ over D-Bus: it sees every advertisement as the controller reports it (BlueZ's
/// discovery merges repeats per device and reports RSSI changes only), takes the very same LE Meta events the
/// btsnoop reader does, and needs no D-Bus library. The cost: it needs root or CAP_NET_RAW, and while it scans,
/// bluetoothd should not run a discovery of its own on the same adapter.
public final class HCIScanner {
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    private let socket: Int32
    public let adapter: String

    /// Opens `hciN`, sets passive scan parameters and enables scanning without duplicate filtering.
    public init(adapter: String) throws(Failure) {
        guard adapter.hasPrefix("hci"), let index = UInt16(adapter.dropFirst(3)) else {
            throw Failure(description: "\(adapter): not an adapter name (expected hci0, hci1, …)")
        }
        self.adapter = adapter
        let fd = Glibc.socket(31 /* AF_BLUETOOTH */, Int32(SOCK_RAW.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 1 /* BTPROTO_HCI */)
        guard fd >= 0 else { throw Self.failure(adapter, "open a Bluetooth socket", errno) }
        var address = (family: UInt16(31), device: index, channel: UInt16(0))
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, 6) }
        }
        guard bound == 0 else { let e = errno; close(fd); throw Self.failure(adapter, "bind", e) }
        // hci_filter: packet types (bit 4, events), event mask (bit 0x3E, LE Meta), opcode 0 (any).
        var filter: (UInt32, UInt32, UInt32, UInt16) = (1 << 4, 0, 1 << (0x3E - 32), 0)
        guard setsockopt(fd, 0 /* SOL_HCI */, 2 /* HCI_FILTER */, &filter, 14) == 0 else {
            let e = errno; close(fd); throw Self.failure(adapter, "set the event filter", e)
        }
        self.socket = fd
        // LE Set Scan Parameters (0x200B): passive, 10 ms interval and window, public address, accept all.
        try command(0x200B, [0x00, 0x10, 0x00, 0x10, 0x00, 0x00, 0x00])
        // LE Set Scan Enable (0x200C): on, duplicates not filtered (monitoring needs every sighting).
        try command(0x200C, [0x01, 0x00])
    }

    deinit {
        var disable: [UInt8] = [0x01, 0x0C, 0x20, 2, 0x00, 0x00]
        _ = write(socket, &disable, disable.count)
        close(socket)
    }

    /// Blocks for the next HCI event and calls `report` for each advertising report in it, stamped with now.
    public func next(_ report: (AdvertisingReport) -> Void) throws(Failure) {
        var buffer = [UInt8](repeating: 0, count: 1024)
        let n = buffer.withUnsafeMutableBytes { read(socket, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno == EINTR { return }
            throw Self.failure(adapter, "read", errno)
        }
        guard n > 1, buffer[0] == 0x04 else { return }
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let time = Timestamp(millisecondsSince1970: Int64(now.tv_sec) * 1000 + Int64(now.tv_nsec) / 1_000_000)
        var statistics = AdvertisingStatistics()
        buffer.withUnsafeBufferPointer { b in
            _ = HCIAdvertisingEvent.reports(in: UnsafeBufferPointer(rebasing: b[1..<n]), at: time,
                                            statistics: &statistics, report)
        }
    }

    private func command(_ opcode: UInt16, _ parameters: [UInt8]) throws(Failure) {
        let packet = [0x01, UInt8(opcode & 0xFF), UInt8(opcode >> 8), UInt8(parameters.count)] + parameters
        guard write(socket, packet, packet.count) == packet.count else {
            throw Self.failure(adapter, "send an LE scan command", errno)
        }
    }

    /// One line saying what is wrong and what would fix it.
    static func failure(_ adapter: String, _ step: String, _ code: Int32) -> Failure {
        let reason: String
        switch code {
        case EAFNOSUPPORT, EPROTONOSUPPORT:
            reason = "this kernel has no Bluetooth support (AF_BLUETOOTH unavailable), so there is no adapter to scan with"
        case ENODEV:
            reason = "no such Bluetooth adapter (see `bluetoothctl list` or `hciconfig`)"
        case EPERM, EACCES:
            reason = "no permission to scan: raw HCI needs root or CAP_NET_RAW (e.g. `sudo setcap cap_net_raw+ep geowake`)"
        case ENETDOWN:
            reason = "the adapter is down (`bluetoothctl power on` or `hciconfig \(adapter) up`)"
        default:
            reason = "cannot \(step): \(String(cString: strerror(code)))"
        }
        return Failure(description: "\(adapter): \(reason)")
    }
}
