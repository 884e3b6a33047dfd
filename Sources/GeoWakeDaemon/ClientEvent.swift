import GeoWakeProtocol

/// An event line for one client's outbox, as a decision made it: stored with the client's next sequence number
/// (`StoreBatch`), then sent. `launchReason` is nil for events that must not launch the client (`status`).
struct ClientEvent: Equatable {
    var client: ClientKey
    var launchReason: LaunchReason?
    var line: String
}
