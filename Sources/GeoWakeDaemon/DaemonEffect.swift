import GeoWakeCore
import GeoWakeProtocol

/// What the daemon's decisions ask of the loop. Requests, fixes, sightings and timers only emit these (`DaemonCore.emit`):
/// none of them holds a socket or commits a step's events, so what they decide can be read off as values
/// (`DaemonCore.take`), and the loop (`carryOut`) is the one place that commits those batches, writes bytes, closes
/// connections and reads the outbox for them.
enum DaemonEffect: Equatable {
    /// One transaction: region states, events, service memories, beacon regions and a trace's position. Once it
    /// committed, the decisions hear what was queued (`DaemonInput.stored`) and send it.
    case store(StoreBatch)
    /// A whole line for the connection; with `afterSync`, it and everything queued after it wait for the turn's sync
    /// (a reply saying a synced commit is done must not reach the client before the commit is on disk).
    case send(ConnectionID, [UInt8], afterSync: Bool)
    /// A line worth sending only now (beacon ranging): dropped when the connection's buffer is full.
    case sendIfRoom(ConnectionID, [UInt8])
    /// An event just stored for the connection's client: written at once when the connection has been sent every
    /// earlier one and has room, else left for the outbox read.
    case event(ConnectionID, QueuedEvent, afterSync: Bool)
    /// The outbox may hold events for the connection's client that it was not sent: read them, from the client's
    /// first pending event when `fromStart` (a connection that just registered).
    case readOutbox(ConnectionID, fromStart: Bool)
    /// The connection ends once what is queued for it is written (an error that closes it, its client disabled).
    case closeAfterSending(ConnectionID)
    /// The connection ends now (its client taken over by another connection).
    case close(ConnectionID)
    /// Decide `request` only after what `earlier` has sent so far: the loop takes those requests, then gives this
    /// one again with `after: earlier` (a process taking over a client: the acks of the one it replaces come first).
    case takeEarlierRequests(of: ConnectionID, thenAgain: ConnectionID, request: [UInt8])
    /// Decide `request` again once the effects before this one are carried out: a request behind acks not yet
    /// stored is decided after their batch committed, so that what it reads and replies sees them.
    case takeAgain(ConnectionID, request: [UInt8], after: ConnectionID?)
    /// News for the launcher (`ClientActivation`), in its place among the lines: it hears of an event after the
    /// event was written to a connected client, so what it does (a launch, a budget) is not on the event's way.
    case tell(LauncherNews)
}

/// What the decisions tell the launcher without waiting for an answer.
enum LauncherNews: Equatable {
    case connectionOpened(ClientKey, pid: Int32, launchedFor: LaunchReason?)
    case connectionClosed(ClientKey)
    /// `reason` is nil for events that must not launch the client.
    case eventQueued(ClientKey, reason: LaunchReason?)
    case disabled(ClientKey)
    case enabled(ClientKey)
    case unregistered(ClientKey)
}
