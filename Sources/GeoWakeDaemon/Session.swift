import GeoWakeCore

/// A connection as the daemon's decisions name it: a number never given twice in a run, unlike the descriptor, which
/// the next accepted socket may reuse as soon as a connection closes.
struct ConnectionID: Hashable, Comparable, Sendable, CustomStringConvertible {
    let serial: UInt64

    static func < (a: Self, b: Self) -> Bool { a.serial < b.serial }
    var description: String { "#\(serial)" }
}

/// Who is at the other end of a connection, as the kernel says (SO_PEERCRED).
struct Peer: Equatable, Sendable {
    let uid: UInt32
    /// The peer's primary gid: its region files are read, and a process launched for it in system mode runs, with it.
    var gid: UInt32 = UInt32.max
    /// A process that says the daemon launched it, after a store that lost the launch, is known by it.
    var pid: Int32 = 0
}

/// A connection as the requests see it: its peer, whether it said hello, which client it registered as. The socket,
/// its buffers and what was written to it are the loop's (`Connection`); an operation has only this, so whatever it
/// decides to send or close goes out as a `DaemonEffect`.
struct Session: Sendable {
    let peer: Peer
    var saidHello = false
    var client: ClientKey?
    /// This connection's client was told the trace had ended (see `Daemon.subscribed`).
    var toldTraceEnded = false

    init(peer: Peer) { self.peer = peer }
}
