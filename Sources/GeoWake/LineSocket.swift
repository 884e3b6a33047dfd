#if canImport(Glibc)
import Glibc
#endif
import GeoWakeCore

/// One connected Unix stream socket carrying newline-delimited messages. Blocking I/O: the library reads
/// on its own thread and writes are short, so nothing here needs an event loop.
final class LineSocket: @unchecked Sendable {
    private let descriptor: Int32
    private var framer = LineFramer()
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    init(connectingTo path: String) throws(GeoWakeError) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .connectionFailed(path: path, reason: String(cString: strerror(errno))) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            close(fd)
            throw .connectionFailed(path: path, reason: "path longer than \(capacity - 1) bytes")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .connectionFailed(path: path, reason: reason)
        }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Writes one message and its newline; false when the peer is gone.
    func send(_ line: [UInt8]) -> Bool {
        var framed = line
        framed.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < framed.count {
            let written = framed.withUnsafeBytes {
                Glibc.send(descriptor, $0.baseAddress! + offset, framed.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// The next line without its newline; nil at end of stream, on error, or past `LineFramer.maximumProtocolLine`.
    func receiveLine() -> [UInt8]? {
        while true {
            switch framer.next() {
            case .line(let line): return line
            case .tooLong: return nil
            case .none: break
            }
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            framer.append(chunk[0..<count])
        }
    }

    /// Wakes a reader blocked in `receiveLine` on another thread; both directions end.
    func shutDown() {
        shutdown(descriptor, Int32(SHUT_RDWR))
    }
}
