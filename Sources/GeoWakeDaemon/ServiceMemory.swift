import Foundation
import JSONLines
import LocationServices

/// One client's detector memory, stored in its subscription row in the same transaction as the events that
/// changed it. Standard and significant-change memories change only when they deliver; a visit detector's changes
/// with every fix during a stay.
struct ServiceMemory: Equatable {
    let client: ClientKey
    let kind: String
    let json: String

    init(client: ClientKey, kind: String, _ memory: some Encodable) {
        self.client = client
        self.kind = kind
        json = (try? JSONEncoder().encode(memory)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The standard and significant-change memory, stored with every event they deliver (every fix with no distance
    /// filter), written directly: the same JSON as `JSONEncoder` gives, without its cost on each fix's way out.
    init(client: ClientKey, kind: String, _ memory: ReportMemory) {
        self.client = client
        self.kind = kind
        var writer = JSONLineWriter(reservingCapacity: 96)
        writer.beginObject()
        if let latitude = memory.latitude { writer.field("latitude", exactly: latitude) }
        if let longitude = memory.longitude { writer.field("longitude", exactly: longitude) }
        if let at = memory.at { writer.field("at", Int(at.millisecondsSince1970)) }
        if let lastSeen = memory.lastSeen { writer.field("lastSeen", Int(lastSeen.millisecondsSince1970)) }
        writer.endObject()
        json = String(decoding: writer.bytes, as: UTF8.self)
    }
}
