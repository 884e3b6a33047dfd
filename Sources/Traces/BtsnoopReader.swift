import GeoWakeCore

/// Reads btsnoop captures (what `btmon -w` and Android's HCI snoop log write) for their LE advertising reports.
///
/// The file is a 16-byte header, "btsnoop\0", version 1 and a datalink type (all big-endian), then records:
/// original length, included length, flags, cumulative drops (4 bytes each), a 64-bit timestamp in microseconds
/// since midnight, 1 January of year 0 AD, and the packet. Datalinks read: 1001 (unencapsulated HCI: flags
/// bit 1 set and bit 0 set mark a received event), 1002 (H4 UART: the packet starts with its type, 0x04 an event)
/// and 2001 (the Linux monitor format btmon writes: the flags' low 16 bits are the opcode, 3 an event).
public enum BtsnoopReader {
    public static let magic: [UInt8] = Array("btsnoop\0".utf8)
    /// Microseconds from 0 AD to 1970-01-01, as btsnoop counts them.
    static let epochOffset: Int64 = 0x00dc_ddb3_0f2f_8000

    enum Datalink: UInt32 {
        case unencapsulated = 1001
        case h4 = 1002
        case linuxMonitor = 2001
    }

    /// Calls `report` for each advertising report in the capture `bytes`; throws when the header is not btsnoop
    /// or names a datalink it cannot take events from. A record cut short at the end is counted as malformed.
    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, statistics: inout AdvertisingStatistics,
                            _ report: (AdvertisingReport) -> Void) throws(TraceError) {
        guard bytes.count >= 16, Array(bytes[0..<8]) == magic else {
            throw TraceError("not a btsnoop file (no \"btsnoop\" header)", location: "byte 0")
        }
        let version = uint32(bytes, 8)
        guard version == 1 else { throw TraceError("btsnoop version \(version), expected 1", location: "byte 8") }
        guard let datalink = Datalink(rawValue: uint32(bytes, 12)) else {
            throw TraceError("btsnoop datalink \(uint32(bytes, 12)) is not HCI (1001), H4 (1002) or Linux monitor (2001)",
                             location: "byte 12")
        }
        var i = 16
        while i < bytes.count {
            guard i + 24 <= bytes.count else { statistics.malformed += 1; return }
            let included = Int(uint32(bytes, i + 4))
            let flags = uint32(bytes, i + 8)
            let micros = Int64(bitPattern: UInt64(uint32(bytes, i + 16)) << 32 | UInt64(uint32(bytes, i + 20)))
            let start = i + 24
            guard included <= bytes.count - start else { statistics.malformed += 1; return }
            statistics.records += 1
            i = start + included
            var packet = UnsafeBufferPointer(rebasing: bytes[start..<(start + included)])
            switch datalink {
            case .unencapsulated:
                guard flags & 0x3 == 0x3 else { statistics.otherPackets += 1; continue }
            case .h4:
                guard packet.count > 0, packet[0] == 0x04 else { statistics.otherPackets += 1; continue }
                packet = UnsafeBufferPointer(rebasing: packet[1...])
            case .linuxMonitor:
                guard flags & 0xFFFF == 3 else { statistics.otherPackets += 1; continue }
            }
            let time = Timestamp(millisecondsSince1970: floorDivide(micros &- epochOffset, 1000))
            var reports = 0
            let outcome = HCIAdvertisingEvent.reports(in: packet, at: time, statistics: &statistics) { r in
                reports += 1
                report(r)
            }
            statistics.reports += reports
            switch outcome {
            case .reports: break
            case .notAdvertising: statistics.otherPackets += 1
            case .malformed: statistics.malformed += 1
            }
        }
    }

    static func uint32(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> Int64 {
        a >= 0 ? a / b : -((-a + b - 1) / b)
    }
}
