#if canImport(Glibc)
import Glibc
#endif
import GPSDTestSupport

/// Just enough MQTT 3.1.1 to be a tracker: CONNECT, PUBLISH at QoS 1 (each acknowledged before the next,
/// so the order is the publisher's), DISCONNECT.
final class MQTTPublisher {
    private let socket: Int32
    private var packetID: UInt16 = 0

    init(port: Int, clientID: String) throws {
        socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard connectLoopback(socket, port: port) else { throw TestFailure("cannot connect to MQTT on \(port)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let variable: [UInt8] = Self.string("MQTT") + [4, 0x02, 0, 60]   // level 4, clean session, keep-alive 60 s
        try send(0x10, variable + Self.string(clientID))
        let connack = try receive(4)
        guard connack[0] == 0x20, connack[3] == 0 else { throw TestFailure("MQTT connection refused: \(connack)") }
    }

    deinit {
        _ = try? send(0xE0, [])
        close(socket)
    }

    func publish(topic: String, _ payload: [UInt8]) throws {
        packetID &+= 1
        try send(0x32, Self.string(topic) + [UInt8(packetID >> 8), UInt8(packetID & 0xFF)] + payload)
        let ack = try receive(4)
        guard ack[0] == 0x40, ack[2] == UInt8(packetID >> 8), ack[3] == UInt8(packetID & 0xFF) else {
            throw TestFailure("no PUBACK for \(packetID): \(ack)")
        }
    }

    private static func string(_ text: String) -> [UInt8] {
        let bytes = Array(text.utf8)
        return [UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes
    }

    private func send(_ header: UInt8, _ body: [UInt8]) throws {
        var packet = [header]
        var length = body.count
        repeat {
            var byte = UInt8(length % 128)
            length /= 128
            if length > 0 { byte |= 0x80 }
            packet.append(byte)
        } while length > 0
        packet += body
        let sent = packet.withUnsafeBytes { Glibc.send(socket, $0.baseAddress, $0.count, 0) }
        guard sent == packet.count else { throw TestFailure("MQTT send failed") }
    }

    private func receive(_ count: Int) throws -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: count)
        var got = 0
        while got < count {
            let n = bytes.withUnsafeMutableBytes { recv(socket, $0.baseAddress! + got, count - got, 0) }
            guard n > 0 else { throw TestFailure("MQTT connection closed or timed out") }
            got += n
        }
        return bytes
    }
}
