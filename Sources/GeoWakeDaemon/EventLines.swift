import GeoWakeCore
import GeoWakeProtocol
import JSONLines

/// The event lines the daemon makes itself, for the outbox: region events with their owners, and `status` events.
enum EventLines {
    static let traceEnded = "the trace was replayed to its end"

    /// The changes that carry an event, each as its owner's line; a region event may launch its owner.
    static func region(_ changes: [SharedRegions.Change]) -> [(ClientKey, LaunchReason?, String)] {
        changes.compactMap { change in
            guard let event = change.event else { return nil }
            var writer = JSONLineWriter(reservingCapacity: 256)
            writer.regionEventLine(event)
            return (change.entry.owner, .region, ClientServices.object(&writer))
        }
    }

    static func status(_ state: String, _ message: String, at time: Timestamp) -> String {
        var writer = JSONLineWriter(reservingCapacity: 128)
        writer.beginObject()
        writer.field("event", "status")
        writer.field("time", time)
        writer.field("state", state)
        writer.field("message", message)
        writer.endLine()
        return ClientServices.object(&writer)
    }
}
