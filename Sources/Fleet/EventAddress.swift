/// An events message's subject (`geowake.event.DEVICE`) and `Nats-Msg-Id` (`DEVICE:SEQUENCE`, the input
/// message's stream sequence; `DEVICE:SEQUENCE:PART` for the further parts of a body larger than one message)
/// as C strings, written into buffers kept from message to message: two strings interpolated per message were
/// a measurable share of a worker's time.
struct EventAddress {
    private var subject: [CChar] = Array("geowake.event.".utf8CString.dropLast())
    private var id: [CChar] = []
    private let subjectPrefix = "geowake.event.".utf8.count

    init() {
        subject.reserveCapacity(256)
        id.reserveCapacity(256)
    }

    mutating func with<R>(device: String, sequence: UInt64, part: Int = 0,
                          _ body: (UnsafePointer<CChar>, UnsafePointer<CChar>) throws -> R) rethrows -> R {
        subject.removeSubrange(subjectPrefix...)
        id.removeAll(keepingCapacity: true)
        for byte in device.utf8 {
            subject.append(CChar(bitPattern: byte))
            id.append(CChar(bitPattern: byte))
        }
        subject.append(0)
        id.append(0x3A)
        Self.appendDecimal(sequence, to: &id)
        if part > 0 {
            id.append(0x3A)
            Self.appendDecimal(UInt64(part), to: &id)
        }
        id.append(0)
        return try subject.withUnsafeBufferPointer { s in try id.withUnsafeBufferPointer { try body(s.baseAddress!, $0.baseAddress!) } }
    }

    private static func appendDecimal(_ value: UInt64, to out: inout [CChar]) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            out.append(CChar(0x30 + Int((value / divisor) % 10)))
            divisor /= 10
        }
    }
}
