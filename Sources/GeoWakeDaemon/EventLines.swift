import GeoWakeCore
import GeoWakeProtocol
import JSONLines

/// The event lines the daemon makes itself, for the outbox: region events with their owners, and `status` events.
enum EventLines {
    static let traceEnded = "the trace was replayed to its end"

    /// The changes that carry an event, each as its owner's line; a region event may launch its owner.
    static func region(_ changes: [SharedRegions.Change]) -> [ClientEvent] {
        changes.compactMap { change in
            guard let event = change.event else { return nil }
            var writer = JSONLineWriter(reservingCapacity: 256)
            writer.regionEventLine(event)
            return ClientEvent(client: change.entry.owner, launchReason: .region, line: ClientServices.object(&writer))
        }
    }

    /// A `status` event; `source` names a source other than the fix source (`beacons`), `dropped` counts the events
    /// an `eventsDropped` stands for.
    static func status(_ state: String, _ message: String, at time: Timestamp, source: String? = nil, dropped: Int? = nil) -> String {
        var writer = JSONLineWriter(reservingCapacity: 128)
        writer.beginObject()
        writer.field("event", "status")
        writer.field("time", time)
        writer.field("state", state)
        writer.field("message", message)
        if let source { writer.field("source", source) }
        if let dropped { writer.field("dropped", dropped) }
        writer.endLine()
        return ClientServices.object(&writer)
    }
}
