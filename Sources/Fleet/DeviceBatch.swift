#if canImport(Glibc)
import Glibc
#endif
import GeoWakeCore
import Traces

/// What one input message on a device's subject carries: one payload (`DevicePayload`), or a batch of that
/// device's payloads in order — JSON lines (fix lines, gpsd reports, OwnTracks locations, one per line), or
/// NMEA sentences (the payload's first byte a `$`) holding whole epochs with their RMC. A batch costs JetStream
/// one message, one acknowledgement and one de-duplication id for all its fixes.
enum DeviceBatch {
    /// Hands each payload's reading to `body`, in order. A message with no line at all is one malformed payload.
    static func read(_ payload: UnsafeRawBufferPointer, _ body: (DevicePayload.Reading) throws -> Void) rethrows {
        let bytes = payload.bindMemory(to: UInt8.self)
        guard let base = bytes.baseAddress, !bytes.isEmpty else {
            try body(DevicePayload.read(payload))
            return
        }
        if let first = bytes.firstIndex(where: { !isSpace($0) }), bytes[first] == UInt8(ascii: "$") {
            try nmea(payload, body)
            return
        }
        var start = 0
        var lines = 0
        while start < bytes.count {
            let newline = memchr(base + start, 0x0A, bytes.count - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) }
            var end = newline ?? bytes.count
            let next = end + 1
            while end > start, isSpace(bytes[end - 1]) { end -= 1 }
            var from = start
            while from < end, isSpace(bytes[from]) { from += 1 }
            if from < end {
                lines += 1
                try body(DevicePayload.read(UnsafeRawBufferPointer(rebasing: payload[from..<end])))
            }
            start = next
        }
        if lines == 0 { try body(DevicePayload.read(payload)) }
    }

    /// A fresh reader per message: the fixes depend on the message alone, so re-processing gives the same ones.
    private static func nmea(_ payload: UnsafeRawBufferPointer, _ body: (DevicePayload.Reading) throws -> Void) rethrows {
        var reader = NMEAReader()
        var fixes: [Fix] = []
        reader.consume(payload) { fixes.append($0) }
        reader.finish { fixes.append($0) }
        for fix in fixes { try body(.fix(fix)) }
        let statistics = reader.statistics
        if fixes.isEmpty { try body(statistics.malformed + statistics.checksumErrors > 0 ? .malformed("malformed NMEA") : .notAFix) }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D || byte == 0x0A
    }
}
