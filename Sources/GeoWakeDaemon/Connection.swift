import Foundation
import JSONLines

/// One accepted socket: its peer uid, line framing both ways, and which client it is registered as.
final class Connection {
    static let maximumLine = 1 << 20
    static let writeBufferLimit = 1 << 20

    let fd: Int32
    let uid: UInt32
    /// The peer's primary gid from SO_PEERCRED: its region files are read, and a process launched for it in
    /// system mode runs, with it.
    var gid: UInt32 = UInt32.max
    var readBuffer: [UInt8] = []
    var writeBuffer: [UInt8] = []
    var saidHello = false
    var client: ClientKey?
    /// The highest seq written to the socket buffer; the outbox is read after it.
    var deliveredThrough: Int64 = 0
    var outboxMayHaveMore = false
    var closeAfterFlush = false
    var closed = false

    init(fd: Int32, uid: UInt32) {
        self.fd = fd
        self.uid = uid
    }

    /// Reads what is there into `chunk`, the loop's one read buffer (a fresh 64 KiB on every read made the allocator
    /// give its pages back and fault them in again on each fix's way out); returns the complete lines, or an error
    /// when a line grew past the limit.
    func readLines(using chunk: inout [UInt8]) -> (lines: [ArraySlice<UInt8>], eof: Bool, tooLong: Bool) {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 { return ([], errno != EAGAIN && errno != EINTR, false) }
        if n == 0 { return ([], true, false) }
        readBuffer.append(contentsOf: chunk[0..<n])
        var lines: [ArraySlice<UInt8>] = []
        var start = 0
        while let newline = readBuffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
            if newline - start > Self.maximumLine { return (lines, false, true) }
            lines.append(readBuffer[start..<newline])
            start = newline + 1
        }
        readBuffer.removeFirst(start)
        lines = lines.map { ArraySlice(Array($0)) }
        return (lines, false, readBuffer.count > Self.maximumLine)
    }

    /// Queues an outbox event as its `event` message, for `flush` to send.
    func append(event: String, seq: Int64) {
        var line = JSONLineWriter(reservingCapacity: event.utf8.count + 48)
        line.beginObject()
        line.field("type", "event")
        line.field("seq", Int(seq))
        line.field("event", json: event)
        line.endLine()
        writeBuffer.append(contentsOf: line.bytes)
        deliveredThrough = seq
    }

    func send(_ line: [UInt8]) {
        writeBuffer.append(contentsOf: line)
        flush()
    }

    func flush() {
        while !writeBuffer.isEmpty {
            let n = writeBuffer.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n <= 0 {
                if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
                closed = true
                return
            }
            writeBuffer.removeFirst(n)
        }
    }
}
