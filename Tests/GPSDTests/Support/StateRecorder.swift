import GPSD
import Synchronization

/// Keeps every state a source reports, for tests to check the sequence.
final class StateRecorder: Sendable {
    private let recorded = Mutex<[SourceState]>([])

    var handler: SourceStateHandler {
        { [self] state in recorded.withLock { $0.append(state) } }
    }

    var states: [SourceState] { recorded.withLock { $0 } }

    var last: SourceState? { states.last }

    var unavailableCount: Int {
        states.filter { if case .unavailable = $0 { true } else { false } }.count
    }
}

/// An NMEA sentence with its checksum and CRLF, from the text between `$` and `*`.
func sentence(_ body: String) -> [UInt8] {
    let checksum = body.utf8.reduce(UInt8(0)) { $0 ^ $1 }
    let hex = String(checksum, radix: 16, uppercase: true)
    return Array("$\(body)*\(hex.count == 1 ? "0" + hex : hex)\r\n".utf8)
}
