import GeoWakeCore

/// Takes advertising reports out of an HCI event packet (without the H4 type byte), as the Linux kernel and
/// btmon lay them out: LE Meta event 0x3E with subevent 0x02 (LE Advertising Report, legacy) or 0x0D (LE
/// Extended Advertising Report), each carrying one or more reports one after another.
enum HCIAdvertisingEvent {
    enum Outcome {
        case reports
        case notAdvertising
        case malformed
    }

    static let leMetaEvent: UInt8 = 0x3E
    static let advertisingReport: UInt8 = 0x02
    static let extendedAdvertisingReport: UInt8 = 0x0D

    /// Calls `report` for each complete report of `event`; a report cut short ends the event as malformed,
    /// after the reports before it.
    static func reports(in event: UnsafeBufferPointer<UInt8>, at time: Timestamp,
                        statistics: inout AdvertisingStatistics, _ report: (AdvertisingReport) -> Void) -> Outcome {
        guard event.count >= 2, event[0] == leMetaEvent else { return .notAdvertising }
        let end = min(event.count, 2 + Int(event[1]))
        guard end >= 4 else { return .notAdvertising }
        let subevent = event[2]
        guard subevent == advertisingReport || subevent == extendedAdvertisingReport else { return .notAdvertising }
        let count = Int(event[3])
        var i = 4
        for _ in 0..<count {
            if subevent == advertisingReport {
                // Event type 1, address type 1, address 6, data length 1, data, RSSI 1.
                guard i + 9 <= end else { return .malformed }
                let length = Int(event[i + 8])
                guard i + 9 + length + 1 <= end else { return .malformed }
                report(AdvertisingReport(time: time, address: address(event, i + 2), rssi: Int(Int8(bitPattern: event[i + 9 + length])),
                                         data: Array(event[(i + 9)..<(i + 9 + length)])))
                i += 9 + length + 1
            } else {
                // Event type 2, address type 1, address 6, primary PHY, secondary PHY, SID, TX power, RSSI,
                // periodic interval 2, direct address type 1, direct address 6, data length 1, data.
                guard i + 24 <= end else { return .malformed }
                let length = Int(event[i + 23])
                guard i + 24 + length <= end else { return .malformed }
                let eventType = UInt16(event[i]) | UInt16(event[i + 1]) << 8
                if eventType >> 5 & 0x3 == 0 {
                    report(AdvertisingReport(time: time, address: address(event, i + 3),
                                             rssi: Int(Int8(bitPattern: event[i + 13])),
                                             data: Array(event[(i + 24)..<(i + 24 + length)])))
                } else {
                    statistics.fragments += 1
                }
                i += 24 + length
            }
        }
        return .reports
    }

    private static func address(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt64 {
        var value: UInt64 = 0
        for k in stride(from: 5, through: 0, by: -1) { value = value << 8 | UInt64(b[at + k]) }
        return value
    }
}
