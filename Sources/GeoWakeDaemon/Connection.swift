import Foundation
import GeoWakeCore
import JSONLines
import GeoWakeProtocol

/// One accepted socket, the loop's side of a connection: line framing both ways and what was delivered on it. Who
/// the peer is and which client it registered as is the daemon's `Session` under the same `id`.
///
/// Both buffers are bounded, so a client costs the daemon at most about 2 MiB whatever it pipelines: requests are
/// taken one line at a time, and none while the replies and events queued for the client fill `writeBufferLimit`
/// (the daemon then stops reading the socket, and the client's own writes block in the kernel).
final class Connection {
    static let maximumLine = LineFramer.maximumProtocolLine
    static let writeBufferLimit = 1 << 20

    let id: ConnectionID
    let fd: Int32
    private var framer = LineFramer()
    private var pendingWrite: [UInt8] = []
    private var writeStart = 0
    /// Where the bytes waiting for the store's sync begin (a reply saying a request is done, and all after it).
    private var heldFrom: Int?
    /// The highest seq written to the socket buffer; the outbox is read after it.
    var deliveredThrough: Int64 = 0
    var outboxMayHaveMore = false
    var closeAfterFlush = false
    var closed = false
    /// The peer shut its side: the requests already read are still answered, then the connection closes.
    private(set) var peerClosed = false
    /// Its next request, a large line being read on a worker (`LinePreparation`): the connection's later lines wait.
    var preparing: LinePreparation?

    init(id: ConnectionID, fd: Int32) {
        self.id = id
        self.fd = fd
    }

    /// Bytes queued for the socket and not yet written.
    var queuedBytes: Int { pendingWrite.count - writeStart }

    /// Whether another reply or event may be queued: the write buffer is below its limit.
    var hasRoom: Bool { queuedBytes < Self.writeBufferLimit }

    /// Whether the loop should take this connection's next request now.
    var mayHandle: Bool { hasRoom && !closeAfterFlush && !closed }

    /// Whether the loop should read the socket: only when every request read so far was taken, so what a client
    /// pipelines waits in its own socket, not in the daemon.
    var wantsInput: Bool { mayHandle && !peerClosed && !hasCompleteLine && preparing == nil }

    var hasCompleteLine: Bool { framer.hasCompleteLine() }

    /// Reads what is there into `chunk`, the loop's one read buffer (a fresh 64 KiB on every read made the allocator
    /// give its pages back and fault them in again on each fix's way out); whether it read anything.
    @discardableResult
    func receive(using chunk: inout [UInt8]) -> Bool {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n < 0 {
            if errno != EAGAIN && errno != EINTR { peerClosed = true }
            return false
        }
        if n == 0 {
            peerClosed = true
            return false
        }
        framer.append(chunk[0..<n])
        return true
    }

    /// The next complete request line, taken out of the buffer.
    func nextLine() -> LineFramer.Next { framer.next() }

    /// Whether the connection is done: closed, or the peer gone and every request it sent taken and answered.
    var isFinished: Bool {
        closed || (closeAfterFlush && queuedBytes == 0) || (peerClosed && !hasCompleteLine && preparing == nil && queuedBytes == 0)
    }

    /// Queues an outbox event as its `event` message, for `flush` to send.
    func append(_ event: QueuedEvent) {
        queue(EventMessage.line(EventNumber(epoch: event.epoch, seq: event.seq), eventText: event.event))
        deliveredThrough = event.seq
    }

    /// Queues bytes (whole lines) without writing them yet.
    func queue(_ bytes: some Collection<UInt8>) {
        if writeStart > 0 && writeStart >= pendingWrite.count / 2 {
            pendingWrite.removeFirst(writeStart)
            heldFrom = heldFrom.map { $0 - writeStart }
            writeStart = 0
        }
        pendingWrite.append(contentsOf: bytes)
    }

    /// What is queued from now on waits for `releaseHeld()`, which the loop calls once the store synced.
    func holdUntilSync() {
        if heldFrom == nil { heldFrom = pendingWrite.count }
    }

    func releaseHeld() {
        guard heldFrom != nil else { return }
        heldFrom = nil
        flush()
    }

    func flush() {
        while writeStart < (heldFrom ?? pendingWrite.count) {
            let n = pendingWrite[writeStart..<(heldFrom ?? pendingWrite.count)].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n <= 0 {
                if n < 0 && (errno == EAGAIN || errno == EINTR) { return }
                closed = true
                return
            }
            writeStart += n
        }
        guard heldFrom == nil else { return }
        pendingWrite.removeAll(keepingCapacity: pendingWrite.capacity <= 1 << 16)
        writeStart = 0
    }
}
