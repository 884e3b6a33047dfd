import Beacons
import GeoWakeCore
import GPSD

/// What the loop hands the daemon's decisions (`DaemonCore.take`), one at a time, each with the times it was taken at.
enum DaemonInput {
    case opened(ConnectionID, Peer)
    /// A whole request line; `after` names the connection whose earlier requests the loop took first, at this one's
    /// asking (`DaemonEffect.takeEarlierRequests`); `prepared` is the line as a worker read it, for a large one.
    case request(ConnectionID, ArraySlice<UInt8>, after: ConnectionID? = nil, prepared: PreparedRequest? = nil)
    /// A line over the protocol's limit: refused, and the connection closed.
    case lineTooLong(ConnectionID)
    case closed(ConnectionID)
    /// The loop read what the connections sent this turn (or what one sent before it goes): the acks among those
    /// requests are applied together, before the turn's fix (`AckBatch.swift`).
    case requestsRead
    /// A fix from the source; a trace's says where it is in the trace, stored with the fix's events.
    case fix(Fix, replayed: FixSource.Replayed?)
    /// A live receiver's report of what it is doing (connecting, silent, unavailable…).
    case sourceState(SourceState)
    /// The running source is looked at for silence: no fix for too long.
    case sourceCheck
    /// Debounced changes and dwells due by the input's wall time fire without a fix (a live source's timer on the
    /// wall clock, a trace's at the instant its replay reached).
    case regionDeadline
    /// A beacon trace's sightings that fell due, its position after them, and whether it was replayed to its end.
    case traceSightings([BeaconSighting], position: Int, ended: Bool)
    /// What a live beacon scanner reported: sightings or its state.
    case scanner(BeaconSource.Item)
    /// A live beacon region's exit timeout fell due.
    case beaconDeadline
    /// No region was added for `DaemonCore.quietBeforeRebuild` after additions deferred an index's rebuild.
    case rebuildDeferredIndexes
    /// The loop is committing a `store` effect's batch of `requests` requests: their changes to memory that need not
    /// wait for it are made now (`AlongsideWork`).
    case storing(requests: Int)
    /// A `store` effect's batch committed: `queued` is what its events became in the outboxes, `requests` what each
    /// of its requests' writes did, in order.
    case stored([ClientEvent], queued: [QueuedEvent], requests: [Result<RequestWrite.Outcome, ProtocolError>] = [])
}
